// The Godfather's console, a gang's page or the table view: one page, drawn from the state the
// server sends over the WebSocket (its full view on connecting, then after every change).
"use strict";

const token = new URLSearchParams(location.search).get("token") || "";
const $ = (id) => document.getElementById(id);
let state = null;
let draft = {};  // the Godfather's inputs being entered for the current step

function cardName(k) { return (state.card_names || {})[String(k)] ?? String(k); }  // as printed on the card
function money(v) { return v === null || v === undefined ? "dead" : (v < 0 ? "-$" : "$") + Math.abs(v).toLocaleString("en"); }
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "onclick") node.addEventListener("click", v);
    else if (k === "class") node.className = v;
    else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}
function button(label, action, onclick, extra = {}) {
  return el("button", { "data-action": action, onclick, ...extra }, label);
}

// -- talking to the server ---------------------------------------------------------------

async function send(input) {
  $("refused").textContent = "";
  const reply = await fetch(`/api/input?token=${encodeURIComponent(token)}`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(input),
  });
  const body = await reply.json();
  if (!body.ok) $("refused").textContent = body.refused;
  if (body.state) render(body.state);
  return body.ok;
}

function connect(delay = 500) {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws?token=${encodeURIComponent(token)}`);
  ws.onopen = () => { $("link").textContent = "live"; $("link").className = "link"; delay = 500; };
  ws.onmessage = (event) => render(JSON.parse(event.data));
  ws.onclose = () => {
    $("link").textContent = "reconnecting..."; $("link").className = "link down";
    setTimeout(() => connect(Math.min(delay * 2, 5000)), delay);
  };
}

// -- drawing ------------------------------------------------------------------------------

function render(next) {
  if (state && next.version < state.version) return;  // an older state, arrived late
  const stepChanged = !state || state.step !== next.step || state.round !== next.round;
  state = next;
  if (stepChanged) draft = {};
  document.body.dataset.version = state.version;
  document.body.dataset.step = state.step;
  $("round").textContent = state.finished ? "Game over" : `Round ${state.round}/8`;
  $("step").textContent = state.finished ? "" : `- ${state.step}`;
  $("count").textContent = state.count || "";
  startCountdown();
  $("prompt").textContent = state.finished ? "Winners: " + (state.winners.join(", ") || "no one") : state.prompt;
  drawTable();
  drawMoney();
  $("controls").replaceChildren(...(state.role === "godfather" ? controls() : []));
  drawSecrets();
  drawTeams();
  $("log").textContent = state.log.join("\n");
  $("log").scrollTop = $("log").scrollHeight;
}

function seatMarks(p) {
  const marks = [];
  if (p.wounds) marks.push(el("span", { class: "wounds", title: `${p.wounds} wounds` }, "●".repeat(p.wounds)));
  if (p.cowardice) marks.push(` C×${p.cowardice}`);
  if (p.honor === "finger") marks.push(" ☝");
  return marks;
}

function drawTable() {
  const table = $("table");
  const order = state.order;
  const n = order.length;
  const byName = Object.fromEntries(state.players.map((p) => [p.name, p]));
  const seats = order.map((name, k) => {
    const p = byName[name];
    const angle = Math.PI / 2 + (2 * Math.PI * k) / n;  // seat 0 at the bottom, clockwise
    const x = 50 + 40 * Math.cos(angle), y = 50 + 40 * Math.sin(angle);
    const classes = ["seat", p.gang || "", p.status.replace(" ", "-")];
    const choice = selectable(p.name);
    if (choice === "legal") classes.push("legal");
    if (choice === "illegal") classes.push("illegal");
    if (draft.selected === p.name) classes.push("selected");
    const aim = draftAim(p.name) ?? p.aim;
    return el("div", { class: classes.join(" "), style: `left:${x}%;top:${y}%`, "data-seat": p.name, onclick: () => tapSeat(p.name) },
      el("div", { class: "name" }, p.name), el("div", {}, p.status, ...seatMarks(p)),
      aim ? el("div", { class: "aim" }, `→ ${aim}`) : "", p.late ? el("div", {}, "late") : "",
      p.card ? el("div", { class: "card" }, `[${p.card}]`) : "");
  });
  const centre = el("div", { class: "pot" }, `pot ${money(state.pot)}`, el("br"), state.godfather ? `Godfather: ${state.godfather}` : "");
  table.replaceChildren(centre, ...seats);
}

function drawMoney() {
  const rows = Object.keys(state.money).map((who) =>
    el("tr", {}, el("td", {}, who), el("td", {}, money(state.money[who])), el("td", {}, money(state.scores[who]))));
  $("money").replaceChildren(el("table", {}, el("tr", {}, el("th", {}, ""), el("th", {}, "money"), el("th", {}, "score")), ...rows));
}

function drawSecrets() {
  if (state.role !== "team") { $("secrets").replaceChildren(); return; }
  const items = state.secrets.map((s) =>
    el("li", { "data-secret": s.player }, `${s.player}: ${s.power || "no power"} / ${s.object || "no object"}`,
      s.used.length ? ` (used: ${s.used.join(", ")})` : ""));
  $("secrets").replaceChildren(el("h3", {}, `Only for ${state.team}`), el("ul", {}, ...items));
}

function drawTeams() {
  if (state.role !== "godfather") { $("teams").replaceChildren(); return; }
  const teams = state.teams.map((t) => el("a", { class: "team", href: t.url, "data-team": t.team },
    el("img", { src: `/api/qr/${encodeURIComponent(t.team)}.svg?token=${encodeURIComponent(token)}`, alt: `QR code of ${t.team}'s page` }),
    el("div", {}, t.team)));
  $("teams").replaceChildren(el("h3", {}, "Each team's own page"), ...teams);
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

// -- the Godfather's inputs, step by step -------------------------------------------------

function selectable(name) {
  if (state.role !== "godfather") return null;
  if (state.step === "aims") {
    if (!draft.selected) return state.who.includes(name) ? "legal" : null;
    return (state.options.targets[draft.selected] || []).includes(name) ? "legal" : "illegal";
  }
  if (state.step === "privilege" && draft.selected) {
    return (state.options.orders[draft.selected] || []).includes(name) ? "legal" : "illegal";
  }
  return null;
}

function draftAim(name) { return draft.aims && name in draft.aims ? draft.aims[name] : undefined; }

function tapSeat(name) {
  if (state.role !== "godfather") return;
  if (state.step === "aims" || state.step === "privilege") {
    const options = state.step === "aims" ? state.options.targets : state.options.orders;
    if (!draft.selected) {
      if (name in options) draft.selected = name;
    } else if (draft.selected === name) {
      draft.selected = null;
    } else if ((options[draft.selected] || []).includes(name)) {
      if (state.step === "aims") { draft.aims = { ...(draft.aims || {}), [draft.selected]: name }; draft.selected = null; }
      else { send({ kind: "privilege", player: draft.selected, target: name }); return; }
    } else {
      $("refused").textContent = `${draft.selected} may not aim at ${name}`;
    }
    render(state);
  }
}

function toggles(names, key, label) {
  draft[key] = draft[key] || {};
  return names.map((n) => button(`${n}${label ? ": " + label : ""}`, `${key}-${n}`, () => { draft[key][n] = !draft[key][n]; render(state); },
    { class: draft[key][n] ? "on" : "" }));
}

function cardButtons() {
  draft.cards = draft.cards || {};
  return Object.entries(state.cards).map(([n, cards]) => el("div", { class: "row" }, `${n}:`,
    ...cards.map((c) => button(c, `card-${n}-${c}`, () => { draft.cards[n] = c; render(state); }, { class: draft.cards[n] === c ? "on" : "" }))));
}

function controls() {
  const s = state.step, out = [];
  const row = (...items) => el("div", { class: "row" }, ...items);
  if (state.finished) return out;
  if (s === "pile") {
    draft.pile = draft.pile || [];
    const kinds = state.ruleset === "classic-2014"
      ? ["cash-5000", "cash-10000", "cash-20000", "diamond-1000", "diamond-5000", "diamond-10000", "painting", "clip", "first-aid"]
      : [5000, 10000, 20000];
    out.push(row(...kinds.map((k) => button(`+ ${cardName(k)}`, `pile-${k}`, () => { draft.pile.push(k); render(state); }))));
    out.push(row(`${draft.pile.length}/${state.options.size}: ${draft.pile.map(cardName).join(", ")}`, button("clear", "pile-clear", () => { draft.pile = []; render(state); })));
    out.push(button("Pile counted", "submit-pile", () => send({ kind: "pile", items: draft.pile }), { class: "primary", disabled: draft.pile.length !== state.options.size }));
  } else if (s === "cards") {
    out.push(button("Every card is down", "submit-cards", () => send({ kind: "cards", cards: {} }), { class: "primary" }));
  } else if (s === "aims") {
    out.push(row("Tap a player, then that player's target."));
    const late = toggles(state.who, "late", "late");
    out.push(row(...late));
    const noTarget = state.who.filter((n) => (state.options.targets[n] || []).length === 0);
    const aims = {};
    for (const n of state.who) aims[n] = draft.late[n] || noTarget.includes(n) ? null : (draftAim(n) ?? null);
    const missing = state.who.filter((n) => aims[n] === null && !draft.late[n] && !noTarget.includes(n));
    out.push(row(missing.length ? `still to aim: ${missing.join(", ")}` : "every aim entered"));
    out.push(button("Aims entered", "submit-aims", () => send({ kind: "aims", aims, late: state.who.filter((n) => draft.late[n]) }),
      { class: "primary", disabled: missing.length > 0 }));
  } else if (s === "privilege") {
    out.push(row("The Godfather may order one player to change target: tap that player, then the new target."));
    out.push(button("No order", "submit-privilege", () => send({ kind: "privilege", player: null, target: null }), { class: "primary" }));
  } else if (s === "withdraw") {
    const check = state.pending && state.pending.check;
    if (check) {
      out.push(row(`Check by eye: ${check.seats.join(", ")}. Tap who lay down in time.`));
      out.push(row(...toggles(check.seats, "down", "lay down")));
      const withdrew = check.withdrew.concat(check.seats.filter((n) => draft.down[n]));
      out.push(button("Withdrawals checked", "submit-withdraw", () => send({ kind: "withdraw", withdrew, too_late: check.too_late, source: "godfather" }), { class: "primary" }));
    } else {
      out.push(row("The tilt sensors judge the withdrawal count."));
    }
    const sensors = state.sensors.present ? state.who.map((n) => button(`${n}: ${state.sensors.overridden.includes(n) ? "Godfather" : "sensor"}`,
      `sensor-${n}`, () => send({ kind: "sensor", player: n, godfather: !state.sensors.overridden.includes(n) }))) : [];
    if (sensors.length) out.push(row("Override a sensor:", ...sensors));
  } else if (s === "bbb") {
    const holders = Object.entries(state.cards).filter(([, cards]) => cards.includes("bbb")).map(([n]) => n);
    out.push(row("Who shows a Bang! Bang! Bang!?"), row(...toggles(holders, "bbb")));
    const cards = Object.fromEntries(holders.filter((n) => draft.bbb[n]).map((n) => [n, "bbb"]));
    out.push(button("Shown", "submit-bbb", () => send({ kind: "show", cards }), { class: "primary" }));
  } else if (s === "throws") {
    out.push(...throwControls(row));
  } else if (s === "reveal" || s === "discards") {
    out.push(row(s === "reveal" ? "Tap each card shown." : "Tap each card discarded unseen."), ...cardButtons());
    const all = Object.keys(state.cards).every((n) => draft.cards[n]);
    out.push(button("Cards entered", `submit-${s}`, () => send({ kind: "show", cards: draft.cards }), { class: "primary", disabled: !all }));
  } else if (s === "picks") {
    const who = state.who[0];
    out.push(row(`${who} takes:`), row(...state.options.table.map((item, k) => button(cardName(item), `pick-${k}`, () => send({ kind: "pick", player: who, take: item })))));
    if (state.options.tile) out.push(button("the New Godfather tile", "pick-tile", () => send({ kind: "pick", player: who, take: "godfather" })));
  }
  if (Object.keys(state.uses || {}).length && state.round && !["pile", "intermission"].includes(s)) out.push(useControls(row));
  if (s === "intermission") {
    out.push(button("The gangs are back: go on", "submit-resume", () => send({ kind: "resume" }), { class: "primary" }));
  }
  return out;
}

function useControls(row) {
  // A player announces a Super Power, Super Kiai or Object: the Godfather enters its use.
  draft.use = draft.use || { player: state.who[0] || state.players[0].name, card: Object.keys(state.uses)[0], fields: "" };
  const u = draft.use;
  const select = (name, values, value, onchange) => {
    const node = el("select", { "data-action": name }, ...values.map((v) => el("option", { value: v, selected: v === value }, name === "use-card" ? cardName(v) : v)));
    node.addEventListener("change", () => { onchange(node.value); render(state); });
    return node;
  };
  const moments = state.uses[u.card] || [];
  if (!moments.includes(u.when)) u.when = moments[0];
  const fields = el("input", { "data-action": "use-fields", placeholder: '{"target": "Bo"}', value: u.fields });
  fields.addEventListener("change", () => { u.fields = fields.value; });
  return el("details", { class: "use" }, el("summary", {}, "A card is used"),
    row(select("use-player", state.players.filter((p) => p.alive).map((p) => p.name), u.player, (v) => { u.player = v; }),
      select("use-card", Object.keys(state.uses), u.card, (v) => { u.card = v; }),
      select("use-when", moments, u.when, (v) => { u.when = v; })),
    row(fields, button("Enter the use", "submit-use", () => {
      let extra = {};
      try { extra = u.fields.trim() ? JSON.parse(u.fields) : {}; } catch (e) { $("refused").textContent = "the fields are not JSON"; return; }
      send({ kind: "use", use: { player: u.player, card: u.card, when: u.when, ...extra } });
    })));
}

function throwControls(row) {
  const out = [];
  const verdict = state.pending && state.pending.verdict;
  const standing = state.players.filter((p) => p.status === "in share").map((p) => p.name);
  if (verdict) {
    out.push(el("div", { class: "verdict", "data-verdict": verdict.thrower },
      row(`${verdict.thrower} threw at ${verdict.target}. Camera: knocked ${verdict.knocked.join(", ") || "nobody"}, touched ${verdict.touched.join(", ") || "nobody"}` +
        (verdict.confidence !== null ? ` (confidence ${verdict.confidence})` : "") + ` - ${verdict.reason}`),
      verdict.frame ? el("img", { src: `/api/frame?token=${encodeURIComponent(token)}&v=${state.version}`, alt: "the frame the camera judged" }) : ""));
    out.push(button("Confirm the camera", "confirm-verdict", () => send({ kind: "throw", thrower: verdict.thrower, target: verdict.target,
      knocked: verdict.knocked, touched: verdict.touched, source: "camera", confidence: verdict.confidence }), { class: "primary" }));
    out.push(row("Or overrule:"), row(...toggles(standing, "knocked", "knocked")), row(...toggles(standing, "touched", "touched")));
    out.push(button("Overrule", "overrule-verdict", () => send({ kind: "throw", thrower: verdict.thrower, target: verdict.target,
      knocked: standing.filter((n) => draft.knocked[n]), touched: standing.filter((n) => draft.touched[n] && !draft.knocked[n]), source: "godfather" })));
    return out;
  }
  out.push(row("A throw: tap the thrower, the target, then what fell and what was only touched."));
  draft.thrower = draft.thrower || null;
  out.push(row(...state.who.map((n) => button(n, `thrower-${n}`, () => { draft.thrower = n; render(state); }, { class: draft.thrower === n ? "on" : "" }))));
  if (draft.thrower) {
    const targets = state.options.targets[draft.thrower] || [];
    out.push(row("target:", ...targets.map((t) => button(t, `target-${t}`, () => { draft.target = t; render(state); }, { class: draft.target === t ? "on" : "" }))));
    out.push(row(...toggles(standing, "knocked", "knocked")), row(...toggles(standing, "touched", "touched")));
    out.push(button("Throw entered", "submit-throw", () => send({ kind: "throw", thrower: draft.thrower, target: draft.target || null,
      knocked: standing.filter((n) => draft.knocked[n]), touched: standing.filter((n) => draft.touched[n] && !draft.knocked[n]), source: "godfather" }), { class: "primary" }));
    out.push(button(`${draft.thrower} shows a shuriken that cannot be thrown`, "show-shuriken", () => send({ kind: "show", cards: { [draft.thrower]: "shuriken" } })));
  }
  out.push(button("No more throws", "submit-throws-done", () => send({ kind: "throws-done" })));
  return out;
}

connect();
