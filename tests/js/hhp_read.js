// Reads a PokerStars hand-history file with the npm `hhp` parser and prints, per hand, what a
// tracker keeps: the numbers, the table line, the seats and stacks, and what each collected.
'use strict'
const fs = require('fs')
const hhp = require('hhp')

const text = fs.readFileSync(process.argv[2], 'utf8')
const out = hhp.extractHands(text).map((raw) => {
  const hand = hhp.parseHand(raw)
  const collected = {}
  // A pot won without a showdown is collected in the street where the betting ended.
  for (const street of ['preflop', 'flop', 'turn', 'river', 'showdown']) {
    for (const line of hand[street] || []) {
      if (line.type === 'collect') collected[line.player] = (collected[line.player] || 0) + line.amount
    }
  }
  const total = (hand.summary || []).find((s) => s.type === 'pot')
  return {
    handid: hand.info.handid,
    gameno: hand.info.gameno,
    table: hand.table,
    seats: hand.seats.map((s) => ({ seatno: s.seatno, player: s.player, chips: s.chips })),
    collected,
    total: total ? total.amount : null,
  }
})
process.stdout.write(JSON.stringify(out))
