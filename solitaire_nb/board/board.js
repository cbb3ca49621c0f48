// Front end of solitaire_nb's board (anywidget ES module, no build step).
//
// Deliberately dumb: it draws the `view` the kernel sends (an SVG from render.py, the status,
// the message and the move list) and reports what the reader did as messages:
//   {event: "click"|"double", pile, index}, {event: "button", name, ...}, {event: "text", text},
//   {event: "escape"}.
// Every rule, every Spanish sentence and every decision lives in Python (board.py).
//
// Keyboard: the drawing is ONE Tab stop (a roving tabindex: the SVG's pickable cards and empty
// piles carry tabindex="-1", and one of them "0"); arrows walk inside it, Enter or Space
// clicks, Esc cancels.  The kernel's message is read out by a polite live region.

const BUTTONS = [
  ["undo", "Deshacer", "Deshace el último movimiento"],
  ["redo", "Rehacer", "Vuelve a jugar el movimiento deshecho"],
  ["hint", "Pista", "Señala un movimiento posible"],
  ["solvable", "¿Tiene solución?", "Pregunta al resolvedor si la posición tiene solución"],
  ["solution", "Ver solución", "Busca una solución para verla paso a paso"],
  ["next", "Siguiente", "Juega el siguiente movimiento de la solución"],
];
const PASTE_HERE = "Pega aquí un código de partida o una partida guardada";
const SOLVER = new Set(["solvable", "solution", "next", "auto"]); // hidden with solution=False
const DOUBLE_MS = 400; // two clicks (or taps) on the same card this close are a double click
const MIN_CARD_PX = 40; // below this the board scrolls sideways instead of shrinking further
const ROOM_STEP = 10; // the width sent to the kernel, in steps of this many px (fewer redraws)
let boards = 0; // element ids must be unique on a page holding several boards
const KEEP_MS = 24 * 3600 * 1000; // a game kept in the browser comes back for a day

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
  const uid = `snb-${++boards}-${Math.random().toString(36).slice(2, 7)}`;
  root.classList.add("snb-board");
  root.setAttribute("lang", "es"); // a Spanish voice for a screen reader, whatever the page says
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
    gameSelect, el("span", { class: "snb-seed-label", "aria-hidden": "true", text: "n.º" }), seedInput, newButton);
  const buttons = {};
  let lastButton = null; // where focus was when the kernel's answer may disable it
  const playGroup = el("span", { class: "snb-group" });
  for (const [name, text, title] of BUTTONS) {
    const b = el("button", { class: "snb-btn", "data-button": name, title, text });
    b.addEventListener("click", () => {
      lastButton = b;
      if (name === "solvable" || name === "solution") showMessage("Pensando…", "info");
      send({ event: "button", name });
    });
    buttons[name] = b;
    playGroup.append(b);
  }
  const autoButton = el("button", { class: "snb-btn", "data-button": "auto", text: "▶ Reproducir",
    title: "Juega la solución sola, un movimiento cada poco" });
  buttons.auto = autoButton;
  playGroup.append(autoButton);
  const toolbar = el("div", { class: "snb-toolbar" }, newGroup, playGroup);

  // --- status, message (the live region), table and move list
  const status = el("div", { class: "snb-status" });
  const message = el("div", { class: "snb-message", role: "status", "aria-live": "polite", "aria-atomic": "true" });
  const table = el("div", { class: "snb-table" });
  const keysHelp = el("p", { class: "snb-keys", id: `${uid}-keys`,
    text: "Teclado: Tab lleva al tablero; ← → cambian de pila, ↑ ↓ recorren sus cartas; " +
      "Intro elige la carta y luego la pila de destino; Esc anula." });
  const movesList = el("div", { class: "snb-moves-list", tabindex: "0", role: "group",
    "aria-label": "Lista de movimientos" });
  const movesTitle = el("div", { class: "snb-moves-title", id: `${uid}-moves`, text: "Movimientos" });
  const moves = el("div", { class: "snb-moves" }, movesTitle, movesList);
  // Shown only when the drawing is wider than the board (the kernel has not laid it out for
  // this width yet, or no layout fits): the table fades at its right edge and this says so.
  const more = el("p", { class: "snb-more", hidden: "", "aria-hidden": "true",
    text: "El tablero sigue a la derecha: desliza para ver el resto →" });
  const board = el("div", { class: "snb-play" }, table, more, keysHelp);
  const main = el("div", { class: "snb-main" }, board, moves);

  // --- keyboard moves and save / load
  const moveInput = el("input", { class: "snb-text", type: "text", id: `${uid}-move`,
    placeholder: "T4 B1  ·  T2 T7 3  ·  M", autocomplete: "off", spellcheck: "false" });
  const moveButton = el("button", { class: "snb-btn", "data-button": "text", text: "Jugar" });
  const playText = () => {
    send({ event: "text", text: moveInput.value });
    moveInput.select();
  };
  moveButton.addEventListener("click", playText);
  moveInput.addEventListener("keydown", (e) => {
    if (e.key === "Enter") playText();
  });
  const help = el("span", { class: "snb-help", id: `${uid}-move-help`,
    text: "Números como en las etiquetas: T = tablero, A = abanico, B = base, R = reserva, " +
      "M = mazo, D = descarte; un tercer número mueve varias cartas (T2 T7 3). También «tablero 2 a base 1»." });
  moveInput.setAttribute("aria-describedby", help.id);
  const keyboard = el("div", { class: "snb-keyboard" },
    el("label", { for: moveInput.id, text: "Movimiento:" }), moveInput, moveButton, help);

  const shareInput = el("input", { class: "snb-share", type: "text", readonly: "",
    "aria-label": "Código para compartir" });
  const saveText = el("textarea", { class: "snb-save-text", rows: "3",
    "aria-label": "Partida guardada o código para cargar",
    placeholder: PASTE_HERE });
  const saveButton = el("button", { class: "snb-btn", "data-button": "save", text: "Guardar" });
  const loadButton = el("button", { class: "snb-btn", "data-button": "load", text: "Cargar" });
  saveButton.addEventListener("click", () => send({ event: "button", name: "save" }));
  loadButton.addEventListener("click", () =>
    send({ event: "button", name: "load", text: saveText.value || shareInput.value }));
  const save = el("details", { class: "snb-save" }, el("summary", { text: "Guardar y compartir" }),
    el("div", { class: "snb-save-row" }, saveButton, loadButton,
      el("span", { "aria-hidden": "true", text: "Código:" }), shareInput), saveText);

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
  // The board's keys are the board's: JupyterLab must not read Esc, the arrows or Enter on a
  // card as notebook commands (command mode would leave the cell or move to another one).
  table.setAttribute("data-lm-suppress-shortcuts", "true");
  table.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "Escape") {
      send({ event: "escape" });
    } else if (e.key.startsWith("Arrow") || e.key === "Home" || e.key === "End") {
      if (!moveFocus(e.key)) return;
    } else if (e.key === "Enter" || e.key === " ") {
      const t = target(e);
      if (!t) return;
      send({ event: "click", ...t });
    } else {
      return;
    }
    e.preventDefault();
    e.stopPropagation();
  });
  // Whatever gets focus inside the drawing (arrow, click, tap) becomes the board's Tab stop.
  table.addEventListener("focusin", (e) => {
    if (e.target.hasAttribute && e.target.hasAttribute("tabindex")) setStop(e.target);
  });

  // --- replay a shown solution on a timer
  let timer = null;
  const stopAuto = () => {
    if (timer) clearInterval(timer);
    timer = null;
    autoButton.textContent = "▶ Reproducir";
  };
  autoButton.addEventListener("click", () => {
    lastButton = autoButton;
    if (timer) return stopAuto();
    if (!(model.get("view") || {}).replay_left) {
      send({ event: "button", name: "solution" });
      showMessage("Pensando…", "info");
    }
    autoButton.textContent = "■ Parar";
    timer = setInterval(() => {
      const v = model.get("view") || {};
      if (!v.replay_left || !v.solution) return stopAuto();
      send({ event: "button", name: "next" });
    }, 700);
  });

  function showMessage(text, kind) {
    message.textContent = text;
    message.className = `snb-message snb-${kind || "info"}`;
  }

  // --- the roving Tab stop
  let current = null; // {pile, index} of the card (or hole) that holds tabindex="0"
  const focusables = () => [...table.querySelectorAll("[tabindex]")];
  const keyOf = (node) => ({ pile: node.getAttribute("data-pile"), index: node.getAttribute("data-index") });
  function find(key) {
    if (!key || !key.pile) return null;
    const mine = [...table.querySelectorAll(`[tabindex][data-pile="${key.pile}"]`)];
    if (key.index !== null && key.index !== undefined) {
      const same = mine.find((n) => n.getAttribute("data-index") === String(key.index));
      if (same) return same;
    }
    return mine.length ? mine[mine.length - 1] : null; // the pile's top card, or its hole
  }
  function setStop(node) {
    for (const n of table.querySelectorAll('[tabindex="0"]')) if (n !== node) n.setAttribute("tabindex", "-1");
    if (!node) return;
    node.setAttribute("tabindex", "0");
    current = keyOf(node);
  }
  // Put focus back on the board's stop (after a redraw, or a button that disabled itself),
  // without scrolling the page: the card is where the reader was looking.
  function focusBoard() {
    const node = find(current) || focusables()[0];
    if (node) {
      setStop(node);
      node.focus({ preventScroll: true });
    }
  }

  // --- draw the kernel's view
  function update() {
    const v = model.get("view") || {};
    const active = document.activeElement;
    const hadFocus = !!active && table.contains(active);
    draw(v.svg || "");
    const svg = table.querySelector("svg");
    if (svg) {
      // Shrink with a narrow page, but never below readable cards: then scroll sideways.
      const scale = MIN_CARD_PX / Number(svg.getAttribute("data-card-width") || 62);
      svg.style.minWidth = `${Math.min(1, scale) * Number(svg.getAttribute("width"))}px`;
      svg.setAttribute("aria-describedby", keysHelp.id);
    }
    showOverflow();
    status.textContent = v.status || "";
    showMessage(v.message || "", v.kind);
    root.dataset.game = v.game || "";
    root.dataset.seed = v.seed === null || v.seed === undefined ? "" : String(v.seed);
    root.dataset.moves = String(v.moves_played || 0);
    const gamesKey = JSON.stringify(v.games || []);  // a composed game joins the list while it is played
    if (gameSelect.dataset.games !== gamesKey) {
      gameSelect.replaceChildren();
      for (const [name, label] of v.games || []) gameSelect.append(el("option", { value: name, text: label }));
      gameSelect.dataset.games = gamesKey;
    }
    // A class challenge's deal is everyone's, an exercise's board is its position: no other deal nor loaded game.
    newGroup.hidden = loadButton.hidden = !!(v.reto || v.fixed);
    saveText.readOnly = !!v.reto;
    saveText.placeholder = v.reto ? "Aquí aparece tu partida al pulsar «Guardar»"
      : PASTE_HERE;
    if (document.activeElement !== gameSelect) gameSelect.value = v.game || "";
    if (document.activeElement !== seedInput) seedInput.value = root.dataset.seed;
    buttons.undo.disabled = !v.can_undo;
    buttons.redo.disabled = !v.can_redo;
    buttons.next.disabled = !v.replay_left;
    buttons.hint.hidden = v.hints === false;
    for (const name of SOLVER) buttons[name].hidden = v.solution === false;
    if (v.solution === false) stopAuto();
    save.hidden = v.saves === false;  // saved here, a game could be solved on another board
    const listChanged = drawMoves(v.moves || []);
    main.classList.toggle("snb-narrow", !!svg && Number(svg.getAttribute("width")) < 800);
    if (v.export) {
      saveText.value = v.export;
      shareInput.value = v.share || "";
      save.open = true;
    }
    // The Tab stop follows the kernel (a move's target, a hint's source), else stays put.
    setStop((v.focus && find({ pile: v.focus, index: null })) || find(current) || focusables()[0] || null);
    // A button that has just disabled or hid itself drops focus to the page: bring it to the
    // board instead, where the game goes on.
    const lost = !document.activeElement || document.activeElement === document.body;
    const buttonGone = lastButton && (lastButton.disabled || lastButton.hidden);
    if (hadFocus || (buttonGone && (lost || document.activeElement === lastButton))) focusBoard();
    if (buttonGone) lastButton = null;
    // Last, as it makes the browser lay the page out: the newest move in view.
    if (listChanged) movesList.scrollTop = movesList.scrollHeight;
  }

  // The move list changes at its end (a move, an undo): keep the lines that stay.
  function drawMoves(lines) {
    const kindOf = (line) => line.startsWith(" ") ? "snb-move snb-auto"
      : /^\d/.test(line) ? "snb-move" : "snb-move snb-deal";
    const shown = movesList.children;
    let keep = 0;
    while (keep < shown.length && keep < lines.length && shown[keep].textContent === lines[keep].trim()
           && shown[keep].className === kindOf(lines[keep])) keep++;
    if (keep === shown.length && keep === lines.length) return false;
    while (shown.length > keep) shown[shown.length - 1].remove();
    movesList.append(...lines.slice(keep).map((line) => el("div", { class: kindOf(line), text: line.trim() })));
    return true;
  }

  // Swap in only the piles that changed (a move touches two or three): the browser then lays
  // out and paints those, not the whole table.  A new deal or a taller drawing is swapped whole.
  function draw(text) {
    const old = table.querySelector("svg");
    const tpl = document.createElement("template");
    tpl.innerHTML = text; // parsed in an inert document: no layout yet
    const fresh = tpl.content.querySelector("svg");
    const same = (name) => old.getAttribute(name) === fresh.getAttribute(name);
    if (!old || !fresh || !same("viewBox") || !same("data-game") || !same("data-seed")
        || old.children.length !== fresh.children.length) {
      table.replaceChildren(tpl.content);
      return;
    }
    for (const name of ["data-moves", "aria-label"]) old.setAttribute(name, fresh.getAttribute(name));
    const now = [...old.children];
    const next = [...fresh.children];
    for (let i = 0; i < now.length; i++) {
      if (!now[i].isEqualNode(next[i])) old.replaceChild(next[i], now[i]);
    }
  }

  // Arrows: left/right to the top card (or hole) of the previous/next pile, up/down through
  // the pickable cards of the same pile; Home/End to the first/last pile.
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
    const order = key === "Home" ? piles : key === "End" ? [...piles].reverse()
      : key === "ArrowRight" ? piles.slice(piles.indexOf(pile) + 1)
      : piles.slice(0, piles.indexOf(pile)).reverse();
    for (const p of order) {
      const node = find({ pile: p, index: null });
      if (node) {
        node.focus();
        return true;
      }
    }
    return true;
  }

  // --- the game kept in this browser: after a reload (or a restarted kernel) the board asks the
  // kernel to load it again.  The kernel names each board (`keep`: its deal and its order among
  // boards dealt alike), so the same board of the same page finds its own game.
  const first = model.get("view") || {};
  const storeKey = first.keep ? `snb:${location.pathname}:${first.keep}` : null;
  let restoring = false;
  const kept = storeKey && readKept(storeKey);
  if (kept && kept !== first.code) {
    restoring = true;
    send({ event: "restore", code: kept });
  }
  // A class challenge's board (reto.py): its page's secret, from the page address, gives the
  // kernel its seat (and, after a reload, its line) from the launcher.
  // Asked again every 2 s until the kernel says which seat it got (a message sent while the page
  // is still connecting can be lost).
  if (first.reto) {
    const secret = new URLSearchParams(location.search).get("asiento") || "";
    let asked = 0;
    const askSeat = () => {
      if ((model.get("view") || {}).seat || asked++ >= 30) return;
      send({ event: "seat", secret });
      setTimeout(askSeat, 2000);
    };
    askSeat();
  }
  function remember() {
    const v = model.get("view") || {};
    if (restoring || !storeKey || !v.code) return;
    try {
      localStorage.setItem(storeKey, JSON.stringify({ code: v.code, t: Date.now() }));
    } catch (e) { /* storage full or forbidden: the board still plays */ }
  }

  // --- a kernel that died: the server restarts it without this board, which would ignore moves
  function lost() {
    if (root.classList.contains("snb-lost")) return;
    root.classList.add("snb-lost");
    stopAuto();
    const reload = el("button", { class: "snb-btn", text: "Recargar la página" });
    reload.addEventListener("click", () => location.reload());
    root.prepend(el("div", { class: "snb-lost-note", role: "alert" },
      el("strong", { text: "Este tablero se ha desconectado. " }),
      "Recarga la página para seguir jugando: tu partida está guardada en este navegador y volverá tal como la dejaste. ",
      reload));
  }
  model.on("comm_live_update", lost); // the board's link to the kernel was closed
  const onStatus = (_, status) => {
    if (status === "restarting" || status === "autorestarting" || status === "dead") lost();
  };
  let kernel = null;
  try {
    kernel = model.widget_manager && model.widget_manager.kernel;
    if (kernel && kernel.statusChanged) kernel.statusChanged.connect(onStatus);
  } catch (e) { /* no kernel to watch (a static page) */ }

  // --- the board's width: the kernel lays the drawing out for it (render.py's `room`)
  function showOverflow() {
    const over = table.scrollWidth > table.clientWidth + 1;
    const atEnd = table.scrollLeft + table.clientWidth >= table.scrollWidth - 2;
    table.classList.toggle("snb-overflow", over && !atEnd);
    more.hidden = !over;
  }
  table.addEventListener("scroll", showOverflow, { passive: true });
  let roomTimer = null;
  function sendRoom() {
    roomTimer = null;
    const width = main.clientWidth;
    if (!width) return; // hidden (a closed tab, a collapsed output): nothing to fit
    const room = Math.max(ROOM_STEP, Math.floor(width / ROOM_STEP) * ROOM_STEP);
    showOverflow();
    if (room === model.get("room")) return;
    try {
      model.set("room", room);
      model.save_changes();
    } catch (e) { /* no kernel (a static page): the drawing scales or scrolls instead */ }
  }
  const resized = () => {
    if (roomTimer === null) roomTimer = setTimeout(sendRoom, 120);
  };
  let observer = null;
  if (typeof ResizeObserver !== "undefined") {
    observer = new ResizeObserver(resized);
    observer.observe(main);
  }
  resized();

  model.on("change:view", () => {
    restoring = false; // the kernel has answered (the kept game, or why not)
    update();
    remember();
  });
  update();
  remember();
  return () => {
    stopAuto();
    if (observer) observer.disconnect();
    if (roomTimer !== null) clearTimeout(roomTimer);
    try {
      if (kernel && kernel.statusChanged) kernel.statusChanged.disconnect(onStatus);
    } catch (e) { /* already gone */ }
  };
}

function readKept(key) {
  try {
    const kept = JSON.parse(localStorage.getItem(key) || "null");
    if (kept && typeof kept.code === "string" && Date.now() - kept.t < KEEP_MS) return kept.code;
  } catch (e) { /* nothing usable kept */ }
  return null;
}

export default { render };
