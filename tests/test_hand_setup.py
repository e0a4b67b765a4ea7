"""HandSetup and Pot write their `__init__` out (compiled, it is then native:
engine/hand_state.py). These tests pin it to the dataclass's fields: the same parameters, in the
same order, with the same defaults, so the two cannot drift apart."""

from __future__ import annotations

import dataclasses

from handlog.engine.hand_state import HandSetup, Pot

FIELDS = dataclasses.fields(HandSetup)
# A value of each field's type unlike its default (set-ups of three players).
OTHER: dict[str, object] = {
    "stacks": (100, 200, 300), "blinds": (0, 5, 10), "antes": (1, 1, 1), "min_bet": 10,
    "chip_unit": 5, "profile": "bse", "players": ("Ann", "Bob", "Cy"), "seats": (2, 4, 9),
    "hand_number": 7, "button_seat": 9, "level": 3, "small_blind_seat": 2,
    "big_blind_seat": 4, "absent": (1,), "dead_money": 15, "rules_digest": "abc",
    "chips_checked": False, "denominations": (5, 25),
}


def test_every_field_is_a_parameter_in_field_order() -> None:
    assert [f.name for f in FIELDS] == list(OTHER)
    setup = HandSetup(*OTHER.values())  # type: ignore[arg-type]
    assert {f.name: getattr(setup, f.name) for f in FIELDS} == OTHER
    assert HandSetup(**OTHER) == setup  # type: ignore[arg-type]
    for name, value in OTHER.items():
        assert getattr(dataclasses.replace(HandSetup((1, 1), (0, 1), (0, 0), 1),
                                           **{name: value}), name) == value


def test_the_defaults_are_the_fields_defaults() -> None:
    setup = HandSetup((100, 200, 300), (0, 5, 10), (0, 0, 0), 10)
    for f in FIELDS:
        if f.name in ("players", "seats"):
            assert f.default == ()
        elif f.default is dataclasses.MISSING:
            assert f.name in ("stacks", "blinds", "antes", "min_bet")
        else:
            assert getattr(setup, f.name) == f.default, f.name
    # Without names or seats, the ones hand_started records.
    assert setup.players == ("p1", "p2", "p3")
    assert setup.seats == (1, 2, 3)


def test_a_set_up_stays_frozen() -> None:
    setup = HandSetup((100, 200), (5, 10), (0, 0), 10)
    try:
        setup.level = 2  # type: ignore[misc]
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise AssertionError("a HandSetup took an assignment")
    assert setup.level == 0


def test_a_pot_takes_its_fields_in_order() -> None:
    assert [f.name for f in dataclasses.fields(Pot)] == ["amount", "eligible"]
    assert all(f.default is dataclasses.MISSING for f in dataclasses.fields(Pot))
    pot = Pot(300, (0, 2))
    assert (pot.amount, pot.eligible) == (300, (0, 2))
    assert Pot(amount=300, eligible=(0, 2)) == pot
    assert dataclasses.replace(pot, amount=400) == Pot(400, (0, 2))
