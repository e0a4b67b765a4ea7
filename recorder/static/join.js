// @ts-check
// /join: a dealer's tablet joins its table with the one-time pairing code from the floor page.
"use strict";

(() => {
  const H = Handlog;
  let code = "";
  const keys = document.getElementById("keys");
  for (const k of ["1", "2", "3", "4", "5", "6", "7", "8", "9", "C", "0", "⌫"]) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "btn key";
    b.textContent = k;
    b.dataset.key = k;
    keys.appendChild(b);
  }
  function draw() {
    document.getElementById("code").textContent = code || "\u00a0";
  }
  keys.addEventListener("click", (e) => {
    const k = /** @type {any} */ (e.target).closest("[data-key]");
    if (!k) return;
    const key = k.dataset.key;
    if (key === "C") code = "";
    else if (key === "⌫") code = code.slice(0, -1);
    else code = (code + key).slice(0, 12);
    draw();
  });
  document.getElementById("join").addEventListener("click", async () => {
    const answer = await H.login({ role: "dealer", code });
    if (answer.status === 200) {
      location.href = `/dealer/${encodeURIComponent(answer.body.table)}`;
      return;
    }
    const error = document.getElementById("error");
    error.hidden = false;
    error.textContent = (answer.body && answer.body.message) || `refused (${answer.status})`;
    code = "";
    draw();
  });
})();
