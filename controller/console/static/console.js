// The Godfather's console, a gang's page or the table view: one page, drawn from the state the
// server sends (over the WebSocket for a page with a token, by asking /api/state for the table).
// The Godfather taps seats on the ring and the controls of the step in the panel at the bottom;
// what he enters is kept in the phone (localStorage) until the server has taken it.
"use strict";

const token = new URLSearchParams(location.search).get("token") || "";
const $ = (id) => document.getElementById(id);
let state = null;
let draft = {};        // the inputs being entered for the current step
let draftKey = null;   // which step the draft belongs to
let online = false;    // the live link to the server is up
let sending = false;   // an input is on its way
let failed = null;     // the input that could not be sent, to retry
let tab = "table";
let countGone = null;
let afterUndo = null;  // an undo sent: the count of inputs it was sent at
let cardsEnd = null;  // when the cards go down by themselves
let claimsEnd = null;  // when the cards entered on the players' pages go by themselves
setInterval(() => {
  if (state && state.role === "godfather" && ((state.step === "cards" && state.auto && !state.cards_held) || claimsEnd !== null)) drawPanel();
  else if (goesTimer) {  // an answer that goes by itself: its seconds tick (the text alone: the buttons stay as they are)
    const goes = document.querySelector("[data-goes]:not([data-goes=claims])");
    if (goes) goes.textContent = goesText();
  }
}, 1000);
const STORE = `cashnguns:${token}:draft`;
// after an undo: the step it came back to (round, step, inputs), where nothing goes by itself (kept in the
// phone, so that a page the phone reloads holds too)
const HELD = `cashnguns:${token}:held`;
let heldStep = (() => { try { return localStorage.getItem(HELD); } catch (e) { return null; } })();
function holdAt(step) { heldStep = step; try { localStorage.setItem(HELD, step); } catch (e) { /* private mode */ } }

// -- small helpers -----------------------------------------------------------------------

function money(v) { return v === null || v === undefined ? "dead" : (v < 0 ? "-$" : "$") + Math.abs(v).toLocaleString("en"); }
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "onclick") node.addEventListener("click", v);
    else if (k === "class") node.className = v;
    else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== "") node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}
// A button; `pressed` (true/false) makes it a toggle with aria-pressed; `send` marks buttons that send.
function button(label, action, onclick, { pressed = null, primary = false, send = false, disabled = false, title = null } = {}) {
  const b = el("button", { type: "button", "data-action": action, class: primary ? "primary" : "", title });
  b.textContent = label;
  if (pressed !== null) b.setAttribute("aria-pressed", pressed ? "true" : "false");
  if (send) b.dataset.send = "1";
  b.disabled = disabled || (send && (sending || (!online && !queues())));
  b.addEventListener("click", onclick);
  return b;
}
const W = (kind, id) => (state && state.words && state.words[kind] && state.words[kind][id]) || String(id);
const cardName = (c) => W("cards", c);
const lootName = (x) => (typeof x === "number" ? money(x) : W("loot", x));
const row = (...items) => el("div", { class: "row" }, ...items);
const label = (text) => el("span", { class: "label" }, text);

// -- the draft, kept in the phone --------------------------------------------------------

function stepOf(s) { return `${s.round}|${s.step}|${s.inputs}`; }
function keyOf(s) { return `${s.round}|${s.step}|${s.inputs}|${s.pending ? JSON.stringify(s.pending).length : 0}`; }
function saveDraft() { try { localStorage.setItem(STORE, JSON.stringify({ key: draftKey, draft })); } catch (e) { /* private mode */ } }
function storedDraft() { try { return JSON.parse(localStorage.getItem(STORE) || "null"); } catch (e) { return null; } }
function loadDraft(key) { const kept = storedDraft(); return kept && kept.key === key ? kept.draft : null; }
function redraw() { saveDraft(); render(state); }
// A new reading of the camera at the same step (the seats of the players who aimed again): what the
// Godfather entered himself stands, and only the seats he has not touched take the new reading (also when
// the reading came while the page was closed: from the draft kept in the phone).
function carried(before, old) {
  if (before === null) { const kept = storedDraft(); if (kept && kept.draft) { before = kept.key; old = kept.draft; } }
  if (state.step !== "aims" || typeof before !== "string" || !before.startsWith(`${stepOf(state)}|`)) return null;
  const mine = Object.keys(old.mine || {});
  if (!mine.length && !old.hold) return null;
  const kept = { aims: {}, late: {} };
  for (const n of mine) { if (old.late && old.late[n]) kept.late[n] = true; else kept.aims[n] = old.aims[n] ?? null; }
  return { mine: old.mine || {}, kept, touched: old.touched, hold: old.hold, chosen: old.hold ? old.shooter : null };
}
// The cards the Godfather entered this round, for the steps that ask for them again (the discards).
const KNOWN = `cashnguns:${token}:known`;
function known() { try { return JSON.parse(localStorage.getItem(KNOWN) || "{}"); } catch (e) { return {}; } }
function remember(round, cards) {
  const all = known(); all[round] = { ...(all[round] || {}), ...cards };
  for (const r of Object.keys(all)) if (Number(r) < round) delete all[r];
  try { localStorage.setItem(KNOWN, JSON.stringify(all)); } catch (e) { /* private mode */ }
}

// -- talking to the server ---------------------------------------------------------------

function status(text, bad = false) { $("sent").textContent = text; $("sent").className = bad ? "failed" : ""; }

// A player's own page keeps what is tapped offline (in the phone) and sends it, in order, once
// the page is live again; the Godfather's page keeps his draft, sent when he sends it again.
const OUTBOX = `cashnguns:${token}:outbox`;
function queues() { return !!state && state.role === "team"; }
function outbox() { try { const list = JSON.parse(localStorage.getItem(OUTBOX) || "[]"); return Array.isArray(list) ? list : []; } catch (e) { return []; } }
function keepOutbox(list) { try { localStorage.setItem(OUTBOX, JSON.stringify(list)); } catch (e) { /* private mode */ } }
function waiting() { const n = outbox().length; return n ? `offline: ${n} tap${n > 1 ? "s" : ""} kept, sent once the page is live` : "offline: your taps are kept and sent once the page is live"; }
let flushing = false;
async function flush() {
  if (flushing) return;
  flushing = true;
  try {
    for (let list = outbox(); online && !failed && list.length; list = outbox()) {
      const input = list.shift(); keepOutbox(list);
      await send(input);  // refused (the table moved on): said; not sent: "Retry", and the rest wait for it
      if (failed) failed.then = flush;
    }
  } finally { flushing = false; }
}

async function send(input, then = null) {
  if (!online && queues()) { const list = outbox(); list.push(input); keepOutbox(list.slice(-50)); status(waiting(), true); drawPanel(); return false; }
  if (!online) { status("offline: not sent", true); return false; }
  $("refused").textContent = "";
  sending = true; failed = null; status("sending..."); drawPanel();
  let reply = null, body = null;
  try {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), 8000);
    reply = await fetch(`/api/input?token=${encodeURIComponent(token)}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(input), signal: ctl.signal,
    });
    clearTimeout(timer);
    body = await reply.json();
  } catch (e) { reply = null; }
  sending = false;
  if (!reply || reply.status >= 500 || !body) {
    failed = { input, then };
    status("not sent: retry", true);
    drawPanel();
    return false;
  }
  if (!body.ok) {
    $("refused").textContent = body.refused || `refused (${reply.status})`;
    status("refused", true);
    if (input.kind === "undo") afterUndo = null;  // nothing was taken back: nothing to hold
  } else {
    status("sent");
  }
  if (body.state) render(body.state);
  drawPanel();  // even if a newer state came meanwhile: the buttons are free again
  if (body.ok && then) return then();
  return body.ok;
}

function connect(delay = 500) {
  if (!token) { poll(); return; }  // the table page: no live link without a token
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws?token=${encodeURIComponent(token)}`);
  ws.onopen = () => { delay = 500; setOnline(true); };
  ws.onmessage = (event) => { setOnline(true); render(JSON.parse(event.data)); };
  ws.onclose = () => { setOnline(false); setTimeout(() => connect(Math.min(delay * 2, 5000)), delay); };
  window.addEventListener("offline", () => { try { ws.close(); } catch (e) { /* closed */ } }, { once: true });
}
async function poll() {
  try {
    const reply = await fetch("/api/state", { cache: "no-store" });
    render(await reply.json()); setOnline(true);
  } catch (e) { setOnline(false); }
  setTimeout(poll, 2000);
}
function setOnline(up) {
  up = up && navigator.onLine !== false;
  if (up === online) return;
  online = up;
  $("link").textContent = up ? "live" : "offline";
  $("link").className = up ? "" : "down";
  document.body.classList.toggle("offline", !up);
  if (!up) status(queues() ? waiting() : "offline: your taps are kept; they are sent when you send again online", true);
  else if ($("sent").textContent.startsWith("offline")) status("");
  if (up && queues()) flush();
  if (state) drawPanel();
}
window.addEventListener("online", () => { if (token) setOnline(true); });
window.addEventListener("offline", () => setOnline(false));

// -- drawing ------------------------------------------------------------------------------

function render(next) {
  if (state && next.version < state.version) return;  // an older state, arrived late
  state = next;
  const key = keyOf(state);
  if (key !== draftKey) {
    const before = draftKey, old = draft;
    draftKey = key; draft = loadDraft(key) || carried(before, old) || {}; cancelGoes();
    if (afterUndo !== null && state.inputs !== afterUndo) { holdAt(stepOf(state)); afterUndo = null; }
    // after an undo nothing goes by itself at the step it came back to, whatever comes to that step later
    // (the camera's reading of the count offered again): until the Godfather taps, or an input is taken
    if (heldStep === stepOf(state)) draft.hold = true;
  }
  // the countdowns restart from the server's state with every state it sends (after a reconnect too)
  cardsEnd = typeof state.cards_in === "number" ? Date.now() + 1000 * state.cards_in : null;
  claimsEnd = typeof state.claims_in === "number" ? Date.now() + 1000 * state.claims_in : null;
  document.body.dataset.version = state.version;
  document.body.dataset.step = state.step;
  document.body.dataset.role = state.role;
  $("round").textContent = state.finished ? "Game over" : `Round ${state.round}/8`;
  $("step").textContent = state.finished ? "" : `· ${W("steps", state.step)}`;
  // the count shows while it is given (the aiming and the withdrawal counts), then goes
  $("count").textContent = state.count && ["aims", "withdraw"].includes(state.step) ? state.count : "";
  clearTimeout(countGone);
  if (state.count) countGone = setTimeout(() => { $("count").textContent = ""; }, 1500);
  $("title").textContent = state.role === "team" ? `${state.team}'s page` + (state.team_players.length > 1 ? ` (${state.team_players.join(", ")})` : "") : "";
  $("prompt").textContent = state.finished ? "Winners: " + (state.winners.join(", ") || "no one") : state.prompt;
  startCountdown();
  drawSummary();
  drawTabs();
  drawRing();
  drawMoney();
  drawLinks();
  drawSecrets();
  $("log").textContent = state.log.join("\n");
  $("panel").hidden = state.role === "table";
  drawPanel();
  if (online && queues() && outbox().length) flush();
}

function drawSummary() {
  const lines = state.summary || [];
  const show = lines.length && ["cards", "aims", "pile", "intermission", "over"].includes(state.step);
  const split = lines.find((l) => /Split|No one shares|cannot share/.test(l)) || lines[lines.length - 1] || "";
  $("summary").replaceChildren(...(show ? [el("details", {}, el("summary", {}, `Round ${state.round - 1}: ${split.trim()}`),
    ...lines.slice(1).map((l) => el("p", {}, l.trim())))] : []));
}

function drawTabs() {
  const tabs = [["table", "Table"], ["money", "Money"], ["story", "Story"]];
  if (state.role === "godfather") tabs.push(["links", "Pages"]);
  if (state.role === "team") tabs.push(["secrets", "Our cards"]);
  $("tabs").replaceChildren(...tabs.map(([id, name]) => {
    const b = el("button", { type: "button", role: "tab", "aria-selected": tab === id ? "true" : "false", "aria-pressed": tab === id ? "true" : "false", "data-tab": id }, name);
    b.addEventListener("click", () => { tab = id; render(state); });
    return b;
  }));
  for (const id of ["table", "money", "story", "links", "secrets"]) $(`tab-${id}`).hidden = tab !== id;
}

function seatMarks(p) {
  const marks = [];
  if (p.wounds) marks.push(el("span", { class: "wounds", title: `${p.wounds} wounds` }, "●".repeat(p.wounds)));
  if (p.cowardice) marks.push(` coward ×${p.cowardice}`);
  if (p.honor === "finger") marks.push(" ☝");
  return marks;
}

// What a seat means at this step, for the Godfather: {pressed, disabled, legal, mark, tap}.
function seatRole(p) {
  if (state.role !== "godfather" || state.finished) return null;
  const s = state.step;
  if (s === "aims") return aimSeat(p);
  if (s === "privilege") return orderSeat(p);
  if (s === "throws") return throwSeat(p);
  return null;
}

function drawRing() {
  const order = state.order, n = order.length;
  const byName = Object.fromEntries(state.players.map((p) => [p.name, p]));
  const pos = {};
  const seats = order.map((name, k) => {
    const p = byName[name];
    const angle = Math.PI / 2 + (2 * Math.PI * k) / n;  // seat 1 at the bottom, clockwise
    const x = 50 + 38 * Math.cos(angle), y = 50 + 38 * Math.sin(angle);
    pos[name] = [x, y];
    const r = seatRole(p);
    const out = ["withdrew", "hit"].includes(p.status);
    const aim = r && r.aim !== undefined ? r.aim : p.aim;
    const b = el("button", { type: "button", class: ["seat", out ? "out" : "", p.alive ? "" : "dead", r && r.legal ? "legal" : "", r && r.shooter ? "shooter" : ""].join(" "),
      style: `left:${x}%;top:${y}%`, "data-seat": p.name, "aria-label": `${p.name}${r && r.mark ? ", " + r.mark : ""}` },
      el("span", { class: "name" }, p.name),
      p.gang ? el("span", { class: `gang ${p.gang}` }, p.gang + (p.yakuza ? " yakuza" : "")) : "",
      el("span", {}, W("status", p.status), ...seatMarks(p)),
      aim ? el("span", { class: "aim" }, `aims at ${aim}`) : (r && r.late ? el("span", { class: "aim" }, "late") : (p.late ? el("span", { class: "aim" }, "late") : "")),
      p.card ? el("span", { class: "card" }, cardName(p.card)) : "",
      r && r.mark ? el("span", { class: "mark" }, r.mark) : "");
    if (r) {
      if (r.pressed !== undefined) b.setAttribute("aria-pressed", r.pressed ? "true" : "false");
      b.disabled = !!r.disabled;
      if (r.tap) b.addEventListener("click", r.tap);
    } else if (state.role === "godfather") {
      b.setAttribute("aria-disabled", "true");
    }
    return b;
  });
  const lines = [];
  for (const p of state.players) {
    const r = seatRole(p);
    const aim = r && r.aim !== undefined ? r.aim : p.aim;
    if (aim && pos[p.name] && pos[aim]) lines.push(arrow(pos[p.name], pos[aim]));
  }
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.innerHTML = `<defs><marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="#ffd166"/></marker></defs>` + lines.join("");
  const centre = el("div", { class: "pot" }, state.pot ? `pot ${money(state.pot)}` : "", state.godfather ? el("div", {}, `Godfather: ${state.godfather}`) : "");
  $("ring").replaceChildren(svg, centre, ...seats);
}
function arrow([x1, y1], [x2, y2]) {
  const dx = x2 - x1, dy = y2 - y1, d = Math.hypot(dx, dy) || 1, s = 9 / d;
  return `<line x1="${x1 + dx * s}" y1="${y1 + dy * s}" x2="${x2 - dx * s}" y2="${y2 - dy * s}" stroke="#ffd166" stroke-width="0.9" marker-end="url(#head)"/>`;
}

function drawMoney() {
  const rows = Object.keys(state.money).map((who) =>
    el("tr", {}, el("td", {}, who), el("td", {}, money(state.money[who])), el("td", {}, money(state.scores[who]))));
  const table = state.table && state.table.length ? el("p", {}, "On the table: " + state.table.map(lootName).join(", ")) : "";
  $("tab-money").replaceChildren(el("table", {}, el("tr", {}, el("th", {}, ""), el("th", {}, "money"), el("th", {}, "score")), ...rows), table);
}

function drawSecrets() {
  if (state.role !== "team") { $("tab-secrets").replaceChildren(); return; }
  const names = (s, c) => (c ? (s.names && s.names[c]) || c : null);
  const items = state.secrets.map((s) => el("div", { class: "secret", "data-secret": s.player }, el("strong", {}, s.player),
    el("div", {}, `Power: ${names(s, s.power) || "none"}`), el("div", {}, `Object: ${names(s, s.object) || "none"}`),
    s.used.length ? el("div", {}, `used: ${s.used.map((c) => names(s, c)).join(", ")}`) : ""));
  $("tab-secrets").replaceChildren(el("p", {}, `Only for ${state.team}: keep this page to yourselves.`), ...items);
}

function drawLinks() {
  if (state.role !== "godfather") { $("tab-links").replaceChildren(); return; }
  const teams = state.teams.map((t) => el("a", { class: "team", href: t.url, "data-team": t.team },
    el("img", { src: `/api/qr?team=${encodeURIComponent(t.team)}&token=${encodeURIComponent(token)}`, alt: `QR code of ${t.team}'s page`, loading: "lazy" }),
    el("span", {}, t.team)));
  $("tab-links").replaceChildren(el("p", {}, "Each team scans its own page (its secret cards):"), ...teams);
}

// The gangs' 5-minute meeting: a countdown, from what the server said was left.
let countdown = null;
function startCountdown() {
  clearInterval(countdown);
  if (state.intermission_left === null || state.intermission_left === undefined) return;
  const end = Date.now() + state.intermission_left * 1000;
  const tick = () => {
    const left = Math.max(0, Math.round((end - Date.now()) / 1000));
    $("prompt").textContent = `Intermission: the gangs meet. ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} left`;
  };
  tick();
  countdown = setInterval(tick, 1000);
}

// -- the panel: the step's controls, the main button, undo -------------------------------------

function drawPanel() {
  if (!state || state.role === "table") return;
  if (state.role === "team") {
    const parts = teamStep();
    $("controls").replaceChildren(...parts.controls);
    $("buttons").replaceChildren(...(failed ? [button("Retry", "retry", () => { const f = failed; send(f.input, f.then); }, { send: true, primary: true })] : []));
    return;
  }
  if (!alone() && goesTimer && goesTimer.wait === "shown") cancelGoes();  // a player's page came in meanwhile
  const step = state.finished ? null : STEPS[state.step];
  const parts = step ? step() : { controls: [], main: [] };
  const controls = [...parts.controls];
  if (!state.finished && Object.keys(state.uses || {}).length && state.round && !["pile", "intermission"].includes(state.step)) controls.push(...useControls());
  $("controls").replaceChildren(...controls);
  const buttons = [];
  if (failed) buttons.push(button("Retry", "retry", () => { const f = failed; send(f.input, f.then); }, { send: true, primary: true }));
  if (state.undo) buttons.push(button(state.undo.can ? `Undo ${state.undo.what}` : "Undo", "undo", () => {
    cancelGoes(); afterUndo = state.inputs;
    remember(state.round, {}); const all = known(); delete all[state.round];
    try { localStorage.setItem(KNOWN, JSON.stringify(all)); } catch (e) { /* private mode */ }
    send({ kind: "undo", count: state.inputs });
  }, { send: true, disabled: !state.undo.can, title: state.undo.can ? null : state.undo.what }));
  if (!failed) buttons.push(...parts.main);
  $("buttons").replaceChildren(...buttons);
}

const STEPS = {
  pile: pileStep, cards: cardsStep, aims: aimsStep, privilege: privilegeStep, withdraw: withdrawStep, bbb: bbbStep,
  throws: throwsStep, reveal: () => showStep("Tap a card only where the preselected one is wrong.", "Cards shown", "submit-reveal"),
  discards: () => showStep("The cards discarded unseen: tap only what differs.", "Cards entered", "submit-discards"),
  picks: picksStep, intermission: intermissionStep,
};

function pileStep() {
  draft.pile = draft.pile || [];
  const kinds = state.ruleset === "classic-2014"
    ? ["cash-5000", "cash-10000", "cash-20000", "diamond-1000", "diamond-5000", "diamond-10000", "painting", "clip", "first-aid"]
    : [5000, 10000, 20000];
  return {
    controls: [row(...kinds.map((k) => button(`+ ${lootName(k)}`, `pile-${k}`, () => { draft.pile.push(k); redraw(); }))),
      row(`${draft.pile.length}/${state.options.size}: ${draft.pile.map(lootName).join(", ")}`, button("Clear", "pile-clear", () => { draft.pile = []; redraw(); }))],
    main: [button("Pile counted", "submit-pile", () => send({ kind: "pile", items: draft.pile }), { primary: true, send: true, disabled: draft.pile.length !== state.options.size })],
  };
}

function cardsStep() {
  const start = button("Start the count", "submit-cards", () => send({ kind: "cards", cards: {} }), { primary: true, send: true });
  if (state.auto && state.cards_held) return { controls: [row("The table waits for the cards to go down.")], main: [start] };
  if (state.auto) {
    const left = cardsEnd === null ? "" : ` in ${Math.max(0, Math.ceil((cardsEnd - Date.now()) / 1000))} s`;
    return { controls: [row(`Each player puts a card face down; the count starts by itself${left}.`)],
      main: [button("Wait", "wait-cards", () => send({ kind: "wait" }), { send: true }), start] };
  }
  return { controls: [row("Enter the card uses announced now, then:")],
    main: [button("Cards are down", "submit-cards", () => send({ kind: "cards", cards: {} }), { primary: true, send: true })] };
}

// Aims: the shooter is preselected (clockwise); a tap on a seat is his target.
// Answers that go by themselves after a moment (state.grace: seconds per step), unless the Godfather taps.
let goesTimer = null;
function cancelGoes() { if (goesTimer) { clearTimeout(goesTimer.id); goesTimer = null; } }
function grace(step) { return 1000 * ((state.grace || {})[step] || 3); }
// `input`: what is sent, or a function that sends (called when the countdown ends: the latest one drawn);
// `wait`: which grace (the step's own by default).
// The cards (as preselected, or as tapped here) go by themselves only while no player's own page is open: else the
// players may still be entering theirs, and the step goes when every card is known (claimsNote), or by the
// Godfather's main button.
function alone() { return !state.team_pages; }
function goesBy(step, input, text, wait = step) {
  if (!online || sending || failed || draft.hold) { cancelGoes(); return null; }
  if (!goesTimer || goesTimer.key !== draftKey || goesTimer.wait !== wait) {
    cancelGoes();
    const key = draftKey;
    const timer = { key, wait, input, at: Date.now() + grace(wait) };
    timer.id = setTimeout(() => {
      goesTimer = null;
      if (draftKey === key && !draft.hold) { if (typeof timer.input === "function") timer.input(); else send(timer.input); }
    }, grace(wait));
    goesTimer = timer;
  }
  goesTimer.input = input;
  goesTimer.text = text;
  return row(el("strong", { "data-goes": step }, goesText()));
}
function goesText() { return `${goesTimer.text} in ${Math.max(1, Math.ceil((goesTimer.at - Date.now()) / 1000))} s`; }
function shooters() { return state.order.filter((n) => state.who.includes(n)); }
function aimsInit() {
  if (draft.aims) { draft.check = draft.check || {}; return; }
  draft.aims = {}; draft.late = {}; draft.check = {};
  const pending = state.pending && state.pending.kind === "aims" ? state.pending : null;
  draft.camera = !!pending;
  for (const n of shooters()) {
    const legal = state.options.targets[n] || [];
    const refused = pending && pending.refused && n in pending.refused;
    if (pending && !refused && n in pending.aims && (pending.aims[n] === null ? !legal.length : legal.includes(pending.aims[n]))) {
      draft.aims[n] = pending.aims[n];
      // the camera's guess for a seat it was unsure of is shown, but waits for the Godfather's eye
      if ((pending.unsure || []).includes(n)) draft.check[n] = true;
    }
    else if (legal.length <= 1) draft.aims[n] = legal.length ? legal[0] : null;
  }
  if (pending) for (const n of pending.late || []) { draft.late[n] = true; draft.aims[n] = null; }
  // the seats the Godfather entered before this reading came (see carried): his word wins over the camera's
  const kept = draft.kept || { aims: {}, late: {} };
  for (const [n, t] of Object.entries(kept.aims)) { draft.aims[n] = t; delete draft.late[n]; delete draft.check[n]; }
  for (const n of Object.keys(kept.late)) { draft.late[n] = true; draft.aims[n] = null; delete draft.check[n]; }
  delete draft.kept;
  draft.shooter = draft.chosen && shooters().includes(draft.chosen) ? draft.chosen : nextShooter(null);
  delete draft.chosen;
}
// a seat the Godfather entered himself
function mine(n) { draft.mine = { ...(draft.mine || {}), [n]: true }; }
function entered(n) { return n in draft.aims || draft.late[n]; }
function nextShooter(after) {
  const list = shooters();
  const start = after === null ? 0 : list.indexOf(after) + 1;
  for (let k = 0; k < list.length; k++) {
    const n = list[(start + k) % list.length];
    if (!entered(n)) return n;
  }
  return null;
}
function aimSeat(p) {
  aimsInit();
  const shooter = draft.shooter;
  const r = { aim: p.name in draft.aims ? draft.aims[p.name] : (draft.late[p.name] ? null : undefined), late: !!draft.late[p.name] };
  if (r.aim === undefined) r.aim = null;
  r.shooter = p.name === shooter;
  if (r.shooter) r.mark = "aiming";
  const legal = shooter ? (state.options.targets[shooter] || []) : [];
  r.legal = shooter && legal.includes(p.name);
  r.pressed = shooter ? draft.aims[shooter] === p.name : false;
  r.disabled = !p.alive || (shooter ? !r.legal : true);
  r.tap = () => { draft.aims[shooter] = p.name; mine(shooter); delete draft.late[shooter]; delete draft.check[shooter]; draft.touched = true; draft.shooter = nextShooter(shooter); draft.hold = false; redraw(); };
  return r;
}
function aimsStep() {
  aimsInit();
  const pending = state.pending && state.pending.kind === "aims" ? state.pending : null;
  const controls = [];
  if (pending) {
    // a player the camera read at a target the rules refuse aims again at once: a short count for him only,
    // and the camera reads his seat again; what it then reads is shown as his new aim
    const aiming = pending.aiming_again || {}, again = pending.aimed_again || {};
    const who = (names) => names.map((n) => `${n} (${(aiming[n] || again[n]).seat})`).join(", ");
    const aimingNow = Object.keys(aiming);
    if (aimingNow.length) controls.push(row(el("strong", { "data-aiming-again": aimingNow.join(",") },
      `${who(aimingNow)} ${aimingNow.length > 1 ? "aim" : "aims"} again: a count for ${aimingNow.length > 1 ? "them" : "that player"} only, then the camera reads the new aim.`)));
    else controls.push(row(`The camera read the aims${(pending.unsure || []).length ? `; unsure: ${pending.unsure.join(", ")}` : ""}. Tap a player below to correct that player's aim.`));
    controls.push(el("div", { class: "frame" }, el("img", { src: `/api/frame?token=${encodeURIComponent(token)}&v=${state.version}`, alt: "the camera's frame at the count, with the lines of fire" })));
    for (const [n, why] of Object.entries(pending.refused || {})) {
      const text = n in aiming ? `${n}: aim refused - ${why}; ${n} aims again` : n in again ? `${n} aimed again: aim refused again - ${why}` : `${n}: aim refused - ${why}`;
      controls.push(row(el("span", { class: "why", "data-refused": n }, text)));
    }
    for (const [n, a] of Object.entries(again)) {
      if (n in (pending.refused || {})) continue;
      const read = (pending.unsure || []).includes(n) ? "the camera is unsure of the new aim: check it" : `the camera reads ${n} at ${pending.aims[n] || "no one"}`;
      controls.push(row(el("span", { "data-aimed-again": n }, `${who([n])} aimed again (refused at the count: ${a.refused}): ${read}.`)));
    }
  }
  const list = shooters();
  controls.push(row(label("Who aims:"), ...list.map((n) => {
    const aim = (draft.late[n] ? "late" : (n in draft.aims ? (draft.aims[n] || "no one") : "?")) + (draft.check[n] ? " (unsure: check)" : "");
    return button(`${n} → ${aim}`, `shooter-${n}`, () => { draft.shooter = n; draft.hold = true; cancelGoes(); redraw(); }, { pressed: draft.shooter === n });
  })));
  const s = draft.shooter;
  if (s) controls.push(row(`${s} aims at: tap ${s}'s target on the table.`, button(`${s} was late`, `late-${s}`, () => { draft.late[s] = true; draft.aims[s] = null; mine(s); delete draft.check[s]; draft.shooter = nextShooter(s); draft.hold = false; redraw(); }, { pressed: !!draft.late[s] })));
  const missing = list.filter((n) => !entered(n));
  const aims = Object.fromEntries(list.map((n) => [n, draft.late[n] ? null : (draft.aims[n] ?? null)]));
  const late = list.filter((n) => draft.late[n]);
  const main = [];
  main.push(button(missing.length ? `Still to aim: ${missing.length}` : (pending ? "Confirm the aims" : "Send the aims now"), "submit-aims",
    () => { cancelGoes(); send({ kind: "aims", aims, late }); }, { primary: true, send: true, disabled: missing.length > 0 }));
  // Every seat filled in (by the camera when it is sure of every seat, else by the last target tapped):
  // the aims go by themselves after a visible countdown, time enough to correct a seat (or undo after).
  const unchecked = list.filter((n) => draft.check[n]);
  if (unchecked.length) {
    // nothing goes by itself while a guess of the camera waits for the Godfather's eye: one tap confirms them all
    cancelGoes();
    controls.push(row(`The camera was unsure of ${unchecked.join(", ")}: check on the frame, then confirm (or tap a player to correct).`));
  } else if (!missing.length) {
    const sure = pending && pending.sure && !draft.touched;
    const text = sure ? "The camera is sure of every aim; tap a player above to correct one. The aims go"
      : "Tap a player above to correct that player's aim; the aims go";
    const note = goesBy("aims", { kind: "aims", aims, late }, text);
    if (note) controls.push(note);
  } else cancelGoes();
  return { controls, main };
}

function orderSeat(p) {
  const who = draft.ordered;
  if (!who) return { pressed: false, disabled: !(p.name in state.options.orders) || !(state.options.orders[p.name] || []).length,
    tap: () => { cancelGoes(); draft.ordered = p.name; draft.hold = true; redraw(); } };
  const legal = state.options.orders[who] || [];
  return { pressed: draft.orderTarget === p.name, legal: legal.includes(p.name), disabled: !legal.includes(p.name) && p.name !== who,
    shooter: p.name === who, mark: p.name === who ? "ordered" : "",
    tap: () => {
      cancelGoes();
      if (p.name === who) { draft.ordered = null; draft.orderTarget = null; draft.hold = true; } else { draft.orderTarget = p.name; draft.hold = false; }
      redraw();
    } };
}
function privilegeStep() {
  const who = draft.ordered, target = draft.orderTarget;
  const controls = [row(who ? `${who} must aim at: tap the new target.` : "The Godfather may order one player to change target: tap that player on the table.")];
  const none = { kind: "privilege", player: null, target: null };
  const main = [button("No order", "submit-privilege", () => { cancelGoes(); send(none); }, { primary: !target, send: true })];
  if (who && target) {
    const order = { kind: "privilege", player: who, target };
    main.push(button(`Order ${who} to aim at ${target}`, "submit-order", () => { cancelGoes(); send(order); }, { primary: true, send: true }));
    const note = goesBy("privilege", order, `${who} is ordered to aim at ${target}: it goes`);
    if (note) controls.push(note);
  } else if (!who) {
    const note = goesBy("privilege", none, "No order: it goes");
    if (note) controls.push(note);
  }
  return { controls, main };
}

function withdrawStep() {
  const check = state.pending && state.pending.check;
  const controls = [], main = [];
  if (check) {
    draft.down = draft.down || {};
    controls.push(row(`Check by eye: ${check.seats.join(", ")}. Tap who lay down in time.`));
    controls.push(row(...check.seats.map((n) => button(`${n} lay down`, `down-${n}`, () => { draft.down[n] = !draft.down[n]; redraw(); }, { pressed: !!draft.down[n] }))));
    const withdrew = check.withdrew.concat(check.seats.filter((n) => draft.down[n]));
    main.push(button("Withdrawals checked", "submit-withdraw", () => send({ kind: "withdraw", withdrew, too_late: check.too_late, source: "godfather" }), { primary: true, send: true }));
  } else if (state.sensors.present) {
    controls.push(row("The tilt sensors judge the withdrawal count."));
  } else {
    draft.down = draft.down || {};
    controls.push(row("Who lay down in time?"), row(...state.who.map((n) => button(`${n} withdrew`, `down-${n}`, () => { draft.down[n] = !draft.down[n]; redraw(); }, { pressed: !!draft.down[n] }))));
    main.push(button("Withdrawals entered", "submit-withdraw", () => send({ kind: "withdraw", withdrew: state.who.filter((n) => draft.down[n]), source: "godfather" }), { primary: true, send: true }));
  }
  if (state.sensors.present) {
    const over = state.sensors.overridden;
    controls.push(row(label("Sensors:"), ...state.who.map((n) => button(`${n}: ${over.includes(n) ? "by eye" : "sensor"}`, `sensor-${n}`,
      () => send({ kind: "sensor", player: n, godfather: !over.includes(n) }), { pressed: over.includes(n), send: true }))));
  }
  return { controls, main };
}

function bbbStep() {
  draft.bbb = draft.bbb || {};
  const holders = Object.entries(state.cards).filter(([, c]) => c.cards.includes("bbb")).map(([n]) => n);
  for (const n of holders) if (!(n in draft.bbb) && (state.claims || {})[n]) draft.bbb[n] = true;
  const cards = Object.fromEntries(holders.filter((n) => draft.bbb[n]).map((n) => [n, "bbb"]));
  const any = Object.keys(cards).length;
  // a shower tapped: what is shown goes by itself a moment after the last tap (each tap starts the moment again)
  const tapped = (n) => () => { draft.bbb[n] = !draft.bbb[n]; draft.entered = true; draft.hold = false; cancelGoes(); redraw(); };
  const controls = [row("Who shows a Bang! Bang! Bang!?"), row(...holders.map((n) => button(`${n} shows it`, `bbb-${n}`, tapped(n), { pressed: !!draft.bbb[n] })))];
  const shown = () => send({ kind: "show", cards: Object.fromEntries(holders.filter((n) => draft.bbb[n]).map((n) => [n, "bbb"])) });
  const note = !any ? goesBy("bbb", shown, "Nobody shows one: it goes", draft.entered && alone() ? "shown" : "bbb")
    : (draft.entered && alone() ? goesBy("bbb", shown, `Shown by ${Object.keys(cards).join(", ")} (tap to correct): it goes`, "shown") : null);
  if (note) controls.push(note);
  return {
    controls,
    main: [button(any ? `Shown: ${Object.keys(cards).join(", ")}` : "Nobody shows one", "submit-bbb", () => send({ kind: "show", cards }), { primary: true, send: true })],
  };
}

// Shuriken: the seats are tapped for what fell (knocked), then what was only touched.
function hitState(n) { return (draft.hits || {})[n] || null; }
function throwSeat(p) {
  const verdict = state.pending && state.pending.verdict;
  const thrower = verdict ? verdict.thrower : draft.thrower;
  if (!thrower) return null;
  const standing = p.status === "in share";
  const h = hitState(p.name);
  return { pressed: h !== null, disabled: !standing || p.name === thrower, mark: h === "knocked" ? "knocked over" : (h === "touched" ? "touched" : ""),
    shooter: p.name === thrower,
    tap: () => { cancelGoes(); draft.hold = true; draft.hits = draft.hits || {}; draft.hits[p.name] = h === null ? "knocked" : (h === "knocked" ? "touched" : null); draft.changed = true; redraw(); } };
}
// At a real table the camera is cued before each throw: the thrower tapped (or "X throws: the camera
// watches") arms it on the table at rest; its verdict then comes as a simulated one does.
function cue(thrower, target = null) { return send({ kind: "watch", thrower, target }); }
function onlyTarget(n) { const targets = (state.options.targets || {})[n] || []; return targets.length === 1 ? targets[0] : null; }
function throwsStep() {
  const verdict = state.pending && state.pending.verdict;
  const cam = state.camera || {};
  const controls = [], main = [];
  if (verdict) {
    if (!draft.hits) { draft.hits = {}; for (const n of verdict.knocked) draft.hits[n] = "knocked"; for (const n of verdict.touched) draft.hits[n] = "touched"; }
    const judged = verdict.confidence !== null && verdict.confidence !== undefined;
    controls.push(el("div", { class: "verdict", "data-verdict": verdict.thrower },
      row(`${verdict.thrower} threw at ${verdict.target || "no one"}. ` + (judged
        ? `Camera: knocked over ${verdict.knocked.join(", ") || "nobody"}, touched ${verdict.touched.join(", ") || "nobody"} - ${verdict.reason}.`
        : `No camera verdict (${verdict.reason}): tap what fell, twice for only touched.`)),
      verdict.frame ? el("div", { class: "frame" }, el("img", { src: `/api/frame?token=${encodeURIComponent(token)}&v=${state.version}`, alt: "the frame the camera judged" })) : ""));
    const targets = state.options.targets[verdict.thrower] || [];
    if (cam.throws && !verdict.target && targets.length > 1) {  // cued before the target was said: it can be said now
      controls.push(row(label("at:"), ...targets.map((x) => button(x, `target-${x}`, () => cue(verdict.thrower, x), { send: true }))));
    }
    const hits = draftHits();
    if (judged && !draft.changed) {
      const camera = { kind: "throw", thrower: verdict.thrower, target: verdict.target, knocked: verdict.knocked, touched: verdict.touched,
        source: "camera", confidence: verdict.confidence };
      main.push(button("Confirm the camera", "confirm-verdict", () => { cancelGoes(); send(camera); }, { primary: true, send: true }));
      // the camera and the tilt sensors agree: the verdict goes by itself after a countdown (a tap on a seat overrules it)
      const note = verdict.sure ? goesBy("verdict", camera, "The camera is sure; tap a seat to overrule it. Its verdict goes") : null;
      if (note) controls.push(note);
    } else {
      main.push(button(judged ? "Overrule the camera" : "Throw entered", "overrule-verdict", () => send({ kind: "throw", thrower: verdict.thrower, target: verdict.target,
        knocked: hits.knocked, touched: hits.touched, source: "godfather" }), { primary: true, send: true }));
    }
    return { controls, main };
  }
  const can = state.who.filter((n) => !(n in state.cards) || state.cards[n].cards.includes("shuriken"));
  // a shuriken already shown must fly: its thrower is preselected; a yakuza's face-down card is not guessed
  const watching = cam.watching || null;
  if (draft.thrower === undefined && watching && can.includes(watching.thrower)) draft.thrower = watching.thrower;  // cued on another page
  if (draft.thrower === undefined || (draft.thrower && !can.includes(draft.thrower))) draft.thrower = can.find((n) => !(n in state.cards)) || null;
  const t = draft.thrower;
  const watched = (n) => !!watching && watching.thrower === n;
  // a thrower tapped cues the camera for his throw (tapped again: it stops watching)
  const tapThrower = (n) => () => {
    draft.thrower = t === n ? null : n; draft.target = null; draft.hold = true; cancelGoes(); redraw();
    if (cam.throws && draft.thrower && (state.options.targets[draft.thrower] || []).length) cue(draft.thrower, onlyTarget(draft.thrower));
    else if (cam.throws && watching) cue(null);
  };
  controls.push(row(label("A shuriken thrown by:"), ...can.map((n) => button(n, `thrower-${n}`, tapThrower(n), { pressed: t === n }))));
  if (watching && can.includes(watching.thrower)) {
    controls.push(el("div", { class: "watching", "data-watching": watching.thrower },
      `The camera watches ${watching.thrower}'s throw${watching.target ? " at " + watching.target : ""}: throw now; its verdict comes here.`));
  } else if (cam.note) {
    controls.push(el("div", { class: "camera-note", "data-camera-note": "" }, cam.note));
  }
  if (cam.throws && t && !watched(t) && (state.options.targets[t] || []).length) {
    controls.push(row(button(`${t} throws: the camera watches`, "watch-throw", () => cue(t, draft.target || onlyTarget(t)), { primary: true, send: true })));
  }
  if (t) {
    const targets = state.options.targets[t] || [];
    if (!targets.includes(draft.target)) draft.target = targets.length === 1 ? targets[0] : null;
    const tapTarget = (x) => () => { draft.target = x; draft.hold = true; cancelGoes(); redraw(); if (watched(t) && watching.target !== x) cue(t, x); };
    controls.push(row(label("at:"), ...targets.map((x) => button(x, `target-${x}`, tapTarget(x), { pressed: draft.target === x }))));
    controls.push(row("Tap on the table what fell (once) or was only touched (twice)."));
    const hits = draftHits();
    main.push(button("Throw entered", "submit-throw", () => send({ kind: "throw", thrower: t, target: draft.target || null, knocked: hits.knocked, touched: hits.touched, source: "godfather" }),
      { primary: !cam.throws || !!draft.changed, send: true, disabled: targets.length > 0 && !draft.target }));
    if (t in state.cards) controls.push(row(button(`${t} shows a shuriken that cannot be thrown`, "show-shuriken", () => send({ kind: "show", cards: { [t]: "shuriken" } }), { send: true })));
  }
  const next = state.next_cards || {};
  if (Object.keys(next).length) {
    const rows = cardRows(next, "next");
    controls.push(row(el("strong", {}, "If no more shuriken flies: the cards shown (tap only what differs).")), ...rows.controls);
    const done = (r) => () => send({ kind: "throws-done" }, () => sendShow(r, "submit-reveal"));
    main.push(button("No more throws · cards shown", "submit-throws-done", done(rows), { primary: !t, send: true, disabled: !rows.all }));
    // a card tapped says the cards are shown (no more shuriken flies): they go a moment after the last tap
    const note = draft.entered && rows.all && !draft.changed && alone()
      ? goesBy("throws", () => done(cardRows(state.next_cards || {}, "next"))(), "No more throws; tap a card to correct it. The cards go", "shown") : null;
    if (note) controls.push(note);
  } else {
    main.push(button("No more throws", "submit-throws-done", () => send({ kind: "throws-done" }), { send: true }));
  }
  return { controls, main };
}
function draftHits() {
  const hits = draft.hits || {};
  return { knocked: Object.keys(hits).filter((n) => hits[n] === "knocked"), touched: Object.keys(hits).filter((n) => hits[n] === "touched") };
}

// A row of cards for each player, the likely card preselected; `later`: discarded unseen at the end.
// A card entered on a player's own page (or tapped here, sent at once) preselects the row.
function claimOf(n, choice) { const c = (state.claims || {})[n]; return c && choice.cards.includes(c.card) ? c : null; }
function entry(n, c) {
  // a card tapped: the cards go by themselves a moment after the last tap (each tap starts the moment again)
  draft.entered = true; draft.hold = false; cancelGoes();
  // online, a tapped card is an entry on the table (as a player's own): the step goes when every card is known
  if (online && !sending && !failed) { delete (draft.cards || {})[n]; saveDraft(); send({ kind: "claim", cards: { [n]: c } }); }
  else { draft.cards[n] = c; redraw(); }
}
function cardRows(choices, prefix) {
  draft.cards = draft.cards || {};
  const before = known()[state.round] || {};
  const controls = [], shown = {}, later = {};
  for (const [n, choice] of Object.entries(choices)) {
    const claim = claimOf(n, choice);
    const kept = draft.cards[n] || (claim ? claim.card : null) || (choice.cards.includes(before[n]) ? before[n] : null);
    const picked = kept || choice.likely;
    if (picked) (choice.later ? later : shown)[n] = picked;
    const by = claim && claim.by !== "godfather" && !draft.cards[n] ? ` (on ${claim.by}'s page)` : "";
    controls.push(row(label(choice.later ? `${n} (discarded)${by}:` : `${n}${by}:`), ...choice.cards.map((c) =>
      button(cardName(c), `${prefix === "card" ? "card" : prefix}-${n}-${c}`, () => entry(n, c), { pressed: picked === c }))));
  }
  const all = Object.keys(choices).every((n) => shown[n] || later[n]);
  return { controls, shown, later, all };
}
function sendShow(rows, action) {
  const round = state.round;
  remember(round, { ...rows.shown, ...rows.later });
  // the cards to be discarded unseen go with them: the discards then go by themselves
  const later = Object.keys(rows.later).length ? { later: rows.later } : {};
  return send({ kind: "show", cards: rows.shown, ...later });
}
function claimsNote() {
  if (claimsEnd === null) return null;
  const left = Math.max(0, Math.ceil((claimsEnd - Date.now()) / 1000));
  return row(el("strong", { "data-goes": "claims" }, `Every card is known (tap one to correct it): they go in ${Math.max(1, left)} s`));
}
// What will be entered, in words, the players by card: "Bang!: Al. Clic: Bo, Cy. Discarded unseen, Clic: Di".
function cardsText(rows) {
  const list = (cards) => {
    const by = {};
    for (const [n, c] of Object.entries(cards)) (by[c] = by[c] || []).push(n);
    return Object.entries(by).map(([c, names]) => `${cardName(c)}: ${names.join(", ")}`);
  };
  return [...list(rows.shown), ...list(rows.later).map((x) => `Discarded unseen, ${x}`)].join(". ");
}
function showStep(text, mainLabel, action) {
  const rows = cardRows(state.cards, "card");
  const controls = [row(text)];
  // every card known on the pages: the server sends them.  Else, while no player's own page is open (the
  // players are not entering theirs), the cards preselected (or tapped) go by themselves after a countdown,
  // each tap starting it again: the Godfather taps only a card that differs.  Not after an undo (draft.hold).
  let note = claimsNote();
  if (note) cancelGoes();
  else if (rows.all && alone()) {
    note = goesBy(state.step, () => sendShow(cardRows(state.cards, "card"), action), `${cardsText(rows)}. Tap a card to correct it; the cards go`, "shown");
  }
  if (note) controls.push(note);  // above the cards: what goes, and when, is read first
  controls.push(...rows.controls);
  return { controls, main: [button(mainLabel, action, () => { cancelGoes(); sendShow(rows, action); }, { primary: true, send: true, disabled: !rows.all })] };
}

// The split (2nd edition): every turn of the split at once (state.split: the pickers in turn and what
// each most likely takes), the guesses filled in.  A tap on a card of the pot gives it to the turn
// marked next; a tap on a guessed turn confirms the turns before it and changes it to the picker's
// next likely card (tapped again, the one after); a tap on an entered turn opens it again; "the tile:
// Bo" gives the New Godfather tile to Bo's next turn.  The split goes as one input (one undo takes it back).
function lootPlan() {
  const split = state.split;
  draft.picks = draft.picks || [];
  if (!split || !split.lap.length) return [];
  const pot = state.options.table.map(String);
  let tile = !!state.options.tile;
  const plan = [];
  const prefer = Object.fromEntries(split.lap.map((n) => [n, [...(split.prefer[n] || [])]]));
  const kind = (c) => c.replace(/-\d+$/, "");  // cash, diamond, painting...
  for (let i = 0; pot.length && i < 64; i++) {
    const who = split.lap[i % split.lap.length];
    const options = [...new Set([...prefer[who].filter((c) => pot.includes(c)), ...pot])];  // the likeliest first
    const likely = options[0];
    if (tile) options.push("godfather");
    let take, how;
    if (i < draft.picks.length) {
      take = draft.picks[i]; how = "entered";
      // a picker who took another kind of card than the likely one goes on with that kind this split
      if (take !== likely && take !== "godfather") prefer[who].sort((a, b) => (kind(b) === kind(take)) - (kind(a) === kind(take)));
    } else {
      how = options.length === 1 ? "forced" : "likely";
      take = likely;
    }
    if (take === "godfather") { if (!tile) break; tile = false; }
    else { const k = pot.indexOf(take); if (k < 0) break; pot.splice(k, 1); }
    plan.push({ who, take, how, options });
  }
  if (draft.open !== undefined && draft.open !== null && !(draft.open < Math.min(plan.length, draft.picks.length))) draft.open = null;
  return plan;
}
// The turn the next card tapped goes to: the open one, else the first not entered (-1: none).
function lootNext(plan) { return draft.open !== null && draft.open !== undefined ? draft.open : plan.findIndex((t) => t.how !== "entered"); }
function lootGive(plan, take) {
  const next = lootNext(plan);
  draft.picks = [...plan.slice(0, next).map((t) => t.take), take]; draft.open = null;
}
function lootTurn(plan, i) {
  const t = plan[i];
  if (i === draft.open || t.how !== "entered") {  // the next likely card (the turns before it as shown)
    const k = t.options.indexOf(t.take);
    const other = i === draft.open ? t.options[(k + 1) % t.options.length] : (t.options.find((c) => c !== t.take) || t.take);
    draft.picks = [...plan.slice(0, i).map((x) => x.take), other]; draft.open = i;
  } else { draft.picks = draft.picks.slice(0, i); draft.open = null; }
}
function lootTile(plan, who) {
  const from = Math.max(0, lootNext(plan));
  const j = plan.findIndex((t, i) => i >= from && t.who === who);
  if (j < 0) return;
  draft.picks = [...plan.slice(0, j).map((t) => t.take), "godfather"]; draft.open = null;
}
function picksStep() {
  const plan = lootPlan();
  const next = lootNext(plan);
  const turn = next < 0 ? null : plan[next];
  const seen = state.inputs;
  const controls = [];
  const tap = (f) => () => { f(); draft.hold = false; cancelGoes(); redraw(); };
  controls.push(row(!turn ? "Every turn is entered: tap a turn to change it."
    : (next === draft.open ? `Turn ${next + 1}: ${turn.who} took ${lootName(turn.take)}? Tap the turn again for the next card, or tap the card:`
      : `Turn ${next + 1}: ${turn.who} takes (tap the card if not ${lootName(turn.take)}; a guessed turn to change it):`)));
  if (turn) {
    const pot = state.options.table.map(String);
    for (const t of plan.slice(0, next)) if (t.take !== "godfather") pot.splice(pot.indexOf(t.take), 1);
    controls.push(el("div", { class: "row compact" }, ...[...new Set(pot)].map((k) => {
      const n = pot.filter((x) => x === k).length;
      return button(n > 1 ? `${lootName(k)} ×${n}` : lootName(k), `pick-${k}`, tap(() => lootGive(plan, k)));
    })));
  }
  const tileFree = plan.slice(0, Math.max(0, next)).every((t) => t.take !== "godfather") && turn && turn.options.includes("godfather");
  if (tileFree) {
    const takers = [...new Set(plan.slice(next).map((t) => t.who))];
    controls.push(el("div", { class: "row compact" }, label(`${lootName("godfather")}, taken by:`),
      ...takers.map((n) => button(n, `tile-${n}`, tap(() => lootTile(plan, n))))));
  }
  controls.push(el("ol", { class: "turns" }, ...plan.map((t, i) => {
    const guess = t.how === "likely";
    const b = button(`${t.who}: ${lootName(t.take)}${guess ? "?" : ""}`, `turn-${i}`, () => {
      lootTurn(plan, i); draft.hold = t.how === "entered" && i !== draft.open; cancelGoes(); redraw();
    }, { pressed: t.how === "entered" });
    b.dataset.take = t.take; b.dataset.how = t.how; b.dataset.who = t.who; b.dataset.options = t.options.join(" ");
    if (i === next) b.classList.add("next");
    return el("li", {}, b);
  })));
  const input = { kind: "picks", picks: plan.map((t) => ({ player: t.who, take: t.take })), seen };
  const guesses = plan.filter((t) => t.how === "likely").length;
  const main = [button(guesses ? `Confirm the split (${guesses} guessed)` : "Send the split now", "submit-picks",
    () => { cancelGoes(); send(input); }, { primary: true, send: true, disabled: !plan.length })];
  if (plan.length && !guesses) {
    const note = goesBy("picks", input, "Every turn is entered; tap a turn to change it. The split goes");
    if (note) controls.push(note);
  } else cancelGoes();
  return { controls, main };
}

// A team's own page (a gang's, or a player's): its own loot picks and cards, nothing else.
function teamStep() {
  const asks = state.asks || { pick: null, cards: {} };
  const controls = [];
  const pick = asks.pick;
  if (pick) {
    const take = (item) => send({ kind: "pick", player: pick.player, take: item, seen: pick.seen });
    controls.push(row(el("strong", {}, `${pick.player}: your turn to take a loot card`)));
    controls.push(row(...pick.items.map((item) => button(lootName(item), `take-${item}`, () => take(item), { send: true }))));
    if (pick.tile) controls.push(row(button(lootName("godfather"), "take-tile", () => take("godfather"), { send: true })));
  }
  const rows = Object.entries(asks.cards || {});
  if (rows.length) {
    const head = asks.step === "bbb" ? "Show your Bang! Bang! Bang! on the table, then tap it here:"
      : (asks.step === "throws" ? "Once the cards are shown, tap each card here:" : "Tap each card here (the Godfather checks them):");
    controls.push(row(el("strong", {}, head)));
    for (const [n, r] of rows) {
      const what = asks.step === "bbb" ? `${n}:` : (r.later ? `${n}'s card, discarded unseen:` : `${n}'s card:`);
      controls.push(row(label(what), ...r.cards.map((c) => button(cardName(c), `mine-${n}-${c}`,
        () => send({ kind: "claim", cards: { [n]: r.entered === c ? null : c } }), { send: true, pressed: r.entered === c }))));
    }
  }
  if (!controls.length) controls.push(row(state.finished ? "The game is over." : "Nothing to enter now: the Godfather runs this step."));
  return { controls, main: [] };
}

function intermissionStep() {
  return { controls: [], main: [button("The gangs are back: go on", "submit-resume", () => send({ kind: "resume" }), { primary: true, send: true })] };
}

// -- card uses: each card's own form ----------------------------------------------------------

function useControls() {
  const u = draft.use;
  if (!u) return [row(button("A card is used…", "use-open", () => { draft.use = { fields: {} }; redraw(); }))];
  const living = state.players.filter((p) => p.alive).map((p) => p.name);
  const out = [row(label("Card used by:"), ...living.map((n) => button(n, `use-player-${n}`, () => { u.player = n; redraw(); }, { pressed: u.player === n })))];
  out.push(row(label("Card:"), ...Object.entries(state.uses).map(([id, c]) => button(c.name, `use-card-${id}`, () => { u.card = id; u.fields = {}; u.when = null; redraw(); }, { pressed: u.card === id }))));
  const card = state.uses[u.card];
  if (card) {
    if (!card.moments.includes(u.when)) u.when = card.moments.length === 1 ? card.moments[0] : null;
    if (card.moments.length > 1) out.push(row(label("When:"), ...card.moments.map((m) => button(W("moments", m), `use-when-${m}`, () => { u.when = m; redraw(); }, { pressed: u.when === m }))));
    for (const f of card.fields) out.push(...fieldControls(f, u, living));
  }
  const ready = u.player && card && u.when && card.fields.every((f) => !f.required || filled(u.fields[f.key]));
  out.push(row(button("Enter the use", "submit-use", () => {
    const fields = Object.fromEntries(Object.entries(u.fields).filter(([, v]) => filled(v)));
    send({ kind: "use", use: { player: u.player, card: u.card, when: u.when, ...fields } }, () => { draft.use = null; redraw(); });
  }, { send: true, disabled: !ready }), button("Cancel", "use-cancel", () => { draft.use = null; redraw(); })));
  return out;
}
function filled(v) { return v !== undefined && v !== null && v !== false && !(Array.isArray(v) && !v.length) && !(typeof v === "object" && !Array.isArray(v) && !Object.keys(v).length); }
const CARD_KINDS = ["clic", "bang", "bbb", "cling", "tanto", "shuriken"];
function fieldControls(f, u, living) {
  const v = u.fields[f.key];
  const set = (x) => { u.fields[f.key] = x; redraw(); };
  const head = label(`${f.label}:`);
  if (f.kind === "player") return [row(head, ...living.map((n) => button(n, `use-${f.key}-${n}`, () => set(v === n ? null : n), { pressed: v === n })))];
  if (f.kind === "players") {
    const list = v || [];
    return [row(head, ...living.map((n) => button(list.includes(n) ? `${n} (${list.indexOf(n) + 1})` : n, `use-${f.key}-${n}`,
      () => set(list.includes(n) ? list.filter((x) => x !== n) : (f.count && list.length >= f.count ? list : [...list, n])), { pressed: list.includes(n) })))];
  }
  if (f.kind === "card") return [row(head, ...CARD_KINDS.map((c) => button(cardName(c), `use-${f.key}-${c}`, () => set(v === c ? null : c), { pressed: v === c })))];
  if (f.kind === "cards") {
    const list = v || [];
    return [row(head, ...CARD_KINDS.map((c) => button(`+ ${cardName(c)}`, `use-${f.key}-${c}`, () => set([...list, c]))),
      list.length ? `${list.map(cardName).join(", ")}` : "", list.length ? button("Clear", `use-${f.key}-clear`, () => set([])) : "")];
  }
  if (f.kind === "bool") return [row(button(f.label, `use-${f.key}`, () => set(!v), { pressed: !!v }))];
  const keys = ["markers", "took", "gave"].includes(f.kind) ? (u.fields.targets || []) : living;
  const values = f.kind === "markers" ? ["wound", "blank"] : (f.kind === "heal" ? [1, 2] : (f.kind === "redirect" ? living : CARD_KINDS));
  const map = v || {};
  const rows = [row(head)];
  for (const k of keys) {
    rows.push(row(label(`${k}:`), ...values.map((x) => button(f.kind === "took" || f.kind === "gave" ? cardName(x) : String(x), `use-${f.key}-${k}-${x}`,
      () => { const next = { ...map }; if (next[k] === x) delete next[k]; else next[k] = x; set(next); }, { pressed: map[k] === x }))));
  }
  return rows;
}

connect();
