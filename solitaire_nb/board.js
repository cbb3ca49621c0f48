// Front end of solitaire_nb's board (anywidget ES module, no build step).
//
// Deliberately dumb: it draws the `view` the kernel sends (an SVG from render.py, the status,
// the message and the move list) and reports what the reader did as messages:
//   {event: "click"|"double", pile, index}, {event: "button", name, ...}, {event: "text", text},
//   {event: "escape"}.
// Every rule, every Spanish sentence and every decision lives in Python (board.py).

const BUTTONS = [
  ["undo", "Deshacer", "Deshace el último movimiento"],
  ["redo", "Rehacer", "Vuelve a jugar el movimiento deshecho"],
  ["hint", "Pista", "Señala un movimiento posible"],
  ["solvable", "¿Tiene solución?", "Pregunta al resolvedor si la posición tiene solución"],
  ["solution", "Ver solución", "Busca una solución para verla paso a paso"],
  ["next", "Siguiente", "Juega el siguiente movimiento de la solución"],
];
const DOUBLE_MS = 400; // two clicks (or taps) on the same card this close are a double click

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function render({ model, el: root }) {
  root.classList.add("snb-board");
  const send = (msg) => model.send(msg);

  // --- toolbar: new deal (game + number), then the play buttons
  const gameSelect = el("select", { class: "snb-game", "aria-label": "Juego" });
  const seedInput = el("input", {
    class: "snb-seed", type: "number", min: "0", step: "1",
    "aria-label": "Número de partida", title: "Número de partida (vacío: al azar)",
  });
  const newButton = el("button", { class: "snb-btn", "data-button": "new", text: "Nueva partida" });
  newButton.addEventListener("click", () =>
    send({ event: "button", name: "new", game: gameSelect.value, seed: seedInput.value }));
  seedInput.addEventListener("keydown", (e) => {
    if (e.key === "Enter") newButton.click();
  });
  const newGroup = el("span", { class: "snb-group" },
    gameSelect, el("label", { class: "snb-seed-label", text: "nº" }), seedInput, newButton);
  const buttons = {};
  const playGroup = el("span", { class: "snb-group" });
  for (const [name, text, title] of BUTTONS) {
    const b = el("button", { class: "snb-btn", "data-button": name, title, text });
    b.addEventListener("click", () => {
      if (name === "solvable" || name === "solution") showMessage("Pensando…", "info");
      send({ event: "button", name });
    });
    buttons[name] = b;
    playGroup.append(b);
  }
  const autoButton = el("button", { class: "snb-btn", "data-button": "auto", text: "▶ Reproducir",
    title: "Juega la solución sola, un movimiento cada poco" });
  playGroup.append(autoButton);
  const toolbar = el("div", { class: "snb-toolbar" }, newGroup, playGroup);

  // --- status, message, table and move list
  const status = el("div", { class: "snb-status", role: "status", "aria-live": "polite" });
  const message = el("div", { class: "snb-message", "aria-live": "assertive" });
  const table = el("div", { class: "snb-table" });
  const movesList = el("div", { class: "snb-moves-list" });
  const moves = el("div", { class: "snb-moves", "aria-label": "Movimientos" },
    el("div", { class: "snb-moves-title", text: "Movimientos" }), movesList);
  const main = el("div", { class: "snb-main" }, table, moves);

  // --- keyboard moves and save / load
  const moveInput = el("input", { class: "snb-text", type: "text", "aria-label": "Escribe un movimiento",
    placeholder: "T4 B1  ·  T2 T7 3  ·  M" });
  const moveButton = el("button", { class: "snb-btn", "data-button": "text", text: "Jugar" });
  const playText = () => {
    send({ event: "text", text: moveInput.value });
    moveInput.select();
  };
  moveButton.addEventListener("click", playText);
  moveInput.addEventListener("keydown", (e) => {
    if (e.key === "Enter") playText();
  });
  const help = el("span", { class: "snb-help",
    text: "Números como en las etiquetas: T = tablero, A = abanico, B = base, R = reserva, " +
      "M = mazo, D = descarte; un tercer número mueve varias cartas (T2 T7 3). También «tablero 2 a base 1»." });
  const keyboard = el("div", { class: "snb-keyboard" },
    el("label", { text: "Movimiento:" }), moveInput, moveButton, help);

  const shareInput = el("input", { class: "snb-share", type: "text", readonly: "",
    "aria-label": "Código para compartir" });
  const saveText = el("textarea", { class: "snb-save-text", rows: "3",
    "aria-label": "Partida guardada (JSON) o código para cargar",
    placeholder: "Pega aquí un código de partida (citadel/1234/T1>T7) o un JSON guardado" });
  const saveButton = el("button", { class: "snb-btn", "data-button": "save", text: "Guardar" });
  const loadButton = el("button", { class: "snb-btn", "data-button": "load", text: "Cargar" });
  saveButton.addEventListener("click", () => send({ event: "button", name: "save" }));
  loadButton.addEventListener("click", () =>
    send({ event: "button", name: "load", text: saveText.value || shareInput.value }));
  const save = el("details", { class: "snb-save" }, el("summary", { text: "Guardar y compartir" }),
    el("div", { class: "snb-save-row" }, saveButton, loadButton,
      el("label", { text: "Código:" }), shareInput), saveText);

  root.append(toolbar, status, message, main, keyboard, save);

  // --- clicks and taps on the table (event delegation: read data-pile / data-index)
  let last = null;
  const target = (e) => {
    const t = e.target.closest("[data-pile]");
    if (!t || !table.contains(t)) return null;
    const idx = t.getAttribute("data-index");
    return { pile: t.getAttribute("data-pile"), index: idx === null ? null : Number(idx) };
  };
  table.addEventListener("click", (e) => {
    const t = target(e);
    if (!t) return;
    const now = Date.now();
    if (last && last.pile === t.pile && last.index === t.index && now - last.t < DOUBLE_MS) {
      last = null;
      send({ event: "double", ...t });
    } else {
      last = { ...t, t: now };
      send({ event: "click", ...t });
    }
  });
  table.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      send({ event: "escape" });
      return;
    }
    if (e.key.startsWith("Arrow")) {
      if (moveFocus(e.key)) e.preventDefault();
      return;
    }
    if (e.key !== "Enter" && e.key !== " ") return;
    const t = target(e);
    if (!t) return;
    e.preventDefault();
    send({ event: "click", ...t });
  });

  // --- replay a shown solution on a timer
  let timer = null;
  const stopAuto = () => {
    if (timer) clearInterval(timer);
    timer = null;
    autoButton.textContent = "▶ Reproducir";
  };
  autoButton.addEventListener("click", () => {
    if (timer) return stopAuto();
    if (!(model.get("view") || {}).replay_left) {
      send({ event: "button", name: "solution" });
      showMessage("Pensando…", "info");
    }
    autoButton.textContent = "■ Parar";
    timer = setInterval(() => {
      const v = model.get("view") || {};
      if (!v.replay_left) return stopAuto();
      send({ event: "button", name: "next" });
    }, 700);
  });

  function showMessage(text, kind) {
    message.textContent = text;
    message.className = `snb-message snb-${kind || "info"}`;
  }

  // --- draw the kernel's view
  function update() {
    const v = model.get("view") || {};
    const active = document.activeElement;
    const hadFocus = active && table.contains(active);
    const focusKey = hadFocus ? [active.getAttribute("data-pile"), active.getAttribute("data-index")] : null;
    table.innerHTML = v.svg || "";
    status.textContent = v.status || "";
    showMessage(v.message || "", v.kind);
    root.dataset.game = v.game || "";
    root.dataset.seed = v.seed === null || v.seed === undefined ? "" : String(v.seed);
    root.dataset.moves = String(v.moves_played || 0);
    if (gameSelect.options.length === 0) {
      for (const [name, label] of v.games || []) gameSelect.append(el("option", { value: name, text: label }));
    }
    if (document.activeElement !== gameSelect) gameSelect.value = v.game || "";
    if (document.activeElement !== seedInput) seedInput.value = root.dataset.seed;
    buttons.undo.disabled = !v.can_undo;
    buttons.redo.disabled = !v.can_redo;
    buttons.next.disabled = !v.replay_left;
    const kindOf = (line) => line.startsWith(" ") ? "snb-move snb-auto"
      : /^\d/.test(line) ? "snb-move" : "snb-move snb-deal";
    movesList.replaceChildren(...(v.moves || []).map((line) => el("div", { class: kindOf(line), text: line.trim() })));
    const svg = table.querySelector("svg");
    main.classList.toggle("snb-narrow", !!svg && Number(svg.getAttribute("width")) < 800);
    movesList.scrollTop = movesList.scrollHeight;
    if (v.export) {
      saveText.value = v.export;
      shareInput.value = v.share || "";
      save.open = true;
    }
    if (hadFocus) restoreFocus(v.focus, focusKey);
  }

  // Arrow keys: left/right to the top card (or hole) of the previous/next pile, up/down
  // through the focusable cards of the same pile.
  function moveFocus(key) {
    const active = document.activeElement;
    if (!active || !table.contains(active)) return false;
    const pile = active.getAttribute("data-pile");
    if (key === "ArrowUp" || key === "ArrowDown") {
      const mine = [...table.querySelectorAll(`[data-pile="${pile}"][tabindex]`)];
      const next = mine[mine.indexOf(active) + (key === "ArrowDown" ? 1 : -1)];
      if (next) next.focus();
      return true;
    }
    const piles = [...table.querySelectorAll("g.snb-pile")].map((g) => g.getAttribute("data-pile"));
    const step = key === "ArrowRight" ? 1 : -1;
    for (let i = piles.indexOf(pile) + step; i >= 0 && i < piles.length; i += step) {
      const all = table.querySelectorAll(`[data-pile="${piles[i]}"][tabindex]`);
      if (all.length) {
        all[all.length - 1].focus();
        return true;
      }
    }
    return true;
  }

  function restoreFocus(pile, key) {
    let node = null;
    if (pile) {
      const all = table.querySelectorAll(`[data-pile="${pile}"][tabindex]`);
      node = all.length ? all[all.length - 1] : null;
    }
    if (!node && key && key[0]) {
      const sel = key[1] === null ? `[data-pile="${key[0]}"][tabindex]` : `[data-pile="${key[0]}"][data-index="${key[1]}"]`;
      node = table.querySelector(sel) || table.querySelector(`[data-pile="${key[0]}"][tabindex]`);
    }
    if (node && node.focus) node.focus();
  }

  model.on("change:view", update);
  update();
  return () => stopAuto();
}

export default { render };
