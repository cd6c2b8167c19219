// The sheet's 4dF roller (templates/sheets/sheet.html, partial "dice-roller"). Runs in the
// browser only, from this file (the site's CSP forbids inline script); without it the
// sheet simply has no Roll buttons.
"use strict";

(() => {
  const roller = document.getElementById("dice-roller");
  if (!roller || !window.crypto || !window.crypto.getRandomValues) return;

  const words = roller.dataset.ladder.split("|"); // the ruleset's ladder, lowest first
  const fair = Number(roller.dataset.fair); // the index of the word that is 0
  const top = words.length - 1 - fair; // the level of the top word (Legendary: +4)
  const bottom = Number(roller.dataset.bottom); // the lowest level this ruleset names
  const damageDie = "damageDie" in roller.dataset; // Mudge 3.22: the fourth die is one
  const panel = roller.querySelector("[data-result-panel]");
  const faces = panel.querySelectorAll(".die");
  const result = panel.querySelector("[data-result]");
  const history = panel.querySelector("[data-history]");
  const KEPT = 3; // earlier rolls kept under the last one

  // One Fudge die: two faces each of -1, 0 and +1. Bytes from 252 up are drawn again so
  // that all six faces stay equally likely (252 = 42 x 6).
  const byte = new Uint8Array(1);
  function fudgeDie() {
    do {
      window.crypto.getRandomValues(byte);
    } while (byte[0] >= 252);
    return Math.floor((byte[0] % 6) / 2) - 1;
  }

  // The rolled degree on the ladder: "Legendary+2" above it, "Terrible-1" below it.
  function levelName(level) {
    if (level > top) return `${words[words.length - 1]}+${level - top}`;
    if (level < bottom) return `${words[bottom + fair]}${level - bottom}`;
    return words[level + fair];
  }

  const signed = (n) => (n > 0 ? `+${n}` : `${n}`);
  const fill = (template, values) => template.replace(/\{(\w+)\}/g, (all, key) => values[key] ?? all);
  const face = (n) => (n > 0 ? "+" : n < 0 ? "\u2212" : "");

  function roll(button) {
    const level = Number(button.dataset.level);
    const dice = [fudgeDie(), fudgeDie(), fudgeDie(), fudgeDie()];
    const total = dice.reduce((sum, die) => sum + die, 0);
    dice.forEach((die, i) => {
      faces[i].textContent = face(die);
    });
    if (result.textContent) {
      const earlier = document.createElement("li");
      earlier.textContent = result.textContent;
      history.prepend(earlier);
      while (history.children.length > KEPT) history.lastElementChild.remove();
    }
    // "rolled +1": the dice, told apart from a trait's own "+2" on the ladder.
    // The sentences come from the roller's data-said-* attributes, in the page's language.
    const values = {
      trait: button.dataset.trait,
      level: levelName(level),
      total: signed(total),
      result: levelName(level + total),
    };
    result.textContent =
      fill(roller.dataset.saidRoll, values) +
      (damageDie ? ` ${fill(roller.dataset.saidDamageDie, { face: signed(dice[3]) })}` : "");
    // Beside the button that rolled it, in the page's flow (a trait's row, or the roller's
    // own button): read where the eye is, over nothing.
    const item = button.closest("li");
    if (item) item.append(panel);
    else button.after(panel);
    panel.hidden = false;
    panel.scrollIntoView({ block: "nearest" });
    panel.setAttribute("tabindex", "-1");
    panel.focus({ preventScroll: true });
  }

  document.addEventListener("click", (event) => {
    const rollButton = event.target.closest("[data-roll]");
    if (rollButton) roll(rollButton);
    else if (event.target.closest("[data-close]")) panel.hidden = true;
  });
  document.querySelectorAll("[data-roll]").forEach((button) => {
    button.hidden = false;
  });
  roller.hidden = false;
})();
