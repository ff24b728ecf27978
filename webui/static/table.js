// The table page: render the state pushed by the server, and send the operator's actions.
// Every string from the server goes through textContent, never innerHTML.
"use strict";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function cardText(card) {
  if (!card) return "?";
  const rank = card.slice(0, -1) === "T" ? "10" : card.slice(0, -1);
  return rank + (SUITS[card.slice(-1)] || card.slice(-1));
}

function cardNode(card) {
  return el("span", cardText(card) + " ", "card suit-" + (card ? card.slice(-1) : "x"));
}

function replace(node, ...children) {
  node.replaceChildren(...children);
}

function row(cells, header) {
  const tr = el("tr");
  for (const c of cells) tr.append(c instanceof Node ? wrap(header ? "th" : "td", c) : el(header ? "th" : "td", c));
  return tr;
}

function wrap(tag, child) {
  const node = el(tag);
  node.append(child);
  return node;
}

function renderSeat(box, seat, state) {
  const head = el("div");
  head.append(el("span", seat.name ? `${seat.name} (${seat.seat})` : seat.seat, "name"));
  if (seat.dealer) head.append(el("span", "dealer", "dealer"));
  const parts = [head];
  if (seat.expected) parts.push(el("div", `cards ${seat.received} / ${seat.expected}`, "progress"));
  if (seat.passed) parts.push(el("div", "passed"));
  if (seat.meld && state.contract) {
    parts.push(el("div", `meld ${seat.meld.total}`, "meldline"));
    for (const m of seat.meld.melds || []) {
      const line = el("div", `${m.name} ${m.points}: `, "meldline");
      for (const c of m.cards || []) line.append(cardNode(c));
      parts.push(line);
    }
  }
  replace(box, ...parts);
  box.classList.toggle("turn", state.auction && state.auction.turn === seat.seat);
}

function renderPinochle(state) {
  for (const seat of state.seats || []) {
    renderSeat(document.querySelector(`.seat[data-seat="${seat.seat}"]`), seat, state);
  }
  document.getElementById("phase").textContent = `hand ${state.hand_number || 1} · ${state.phase || ""}`;
  const c = state.contract;
  document.getElementById("contract").textContent = c
    ? `${c.declarer} ${c.amount}${c.trump ? " · trump " + SUITS[c.trump] + " " + SUIT_NAMES[c.trump] : " · trump not named"}`
    : "";
  const dc = state.deck_check;
  document.getElementById("deckcheck").textContent = dc ? `deck check: ${dc.text}` : "";

  const a = state.auction || {};
  const bits = [];
  if (a.high) bits.push(`high bid ${a.high.amount} (${a.high.seat})`);
  else bits.push("no bid yet");
  if (a.turn) bits.push(`${a.turn} to call`);
  if (a.finished) bits.push("auction over");
  if (a.stuck_dealer) bits.push("stick the dealer: dealer forced to 20");
  document.getElementById("auction-status").textContent = bits.join(" · ");
  replace(document.getElementById("bids"), ...(a.history || []).map((h) =>
    el("li", `${h.seat}: ${h.call}`, h.call === "pass" ? "pass" : "bid")));

  const teams = document.getElementById("teams");
  replace(teams, row(["side", "meld", "counters", "needed", "score"], true),
    ...(state.teams || []).map((t) => row([t.side, t.meld ?? "–", t.counters ?? "–", t.needed ?? "–", t.score])));

  replace(document.getElementById("verdicts"), ...(state.verdicts || []).map((v) => {
    const li = el("li", null, v.status === "ok" ? "status-ok" : "status-bad");
    li.append(el("strong", `${v.status} — ${v.rule}. `), el("span", `${v.reason} `), el("em", v.remedy || ""));
    return li;
  }));

  const r = state.result;
  document.getElementById("result").textContent = r ? r.text : "";
  const scores = document.getElementById("scores");
  replace(scores, row(["hand", "dealer", "contract", "result", "NS", "EW"], true),
    ...(state.score_sheet || []).map((h) => row([h.hand, h.dealer, h.contract ?? "–", h.result, h.NS, h.EW])));
  if (state.totals) scores.append(row(["total", "", "", "", state.totals.NS, state.totals.EW], true));
  document.getElementById("nextdealer").textContent = state.winner
    ? `game: ${state.winner} wins`
    : state.next_dealer ? `next dealer: ${state.next_dealer}` : "";
}

// Bridge: a set pre-dealt or verified at the shoe. Every status is spelled out in words and
// marked ✓ or ✗, so colour is never the only signal.
function boardCell(b) {
  const cell = el("span", `${b.ok ? "✓" : "✗"} ${b.status}`, b.ok ? "status-word ok" : "status-word bad");
  const wrap = el("span");
  wrap.append(cell);
  if (b.copies_dealt) wrap.append(el("small", ` · ${b.copies_dealt} cop${b.copies_dealt === 1 ? "y" : "ies"} dealt`));
  return wrap;
}

function listCell(lines) {
  if (!lines || !lines.length) return el("span", "–");
  const list = el("ul", null, "lines");
  for (const line of lines) list.append(el("li", line));
  return list;
}

function renderBridge(state) {
  const p = state.progress;
  const progress = document.getElementById("bridge-progress");
  if (p) {
    const copy = p.stage === "deal" ? `, copy ${p.copy}` : "";
    progress.textContent = `${state.mode}: board ${p.board}${copy} · ${p.done} of ${p.total} done`;
    const bar = document.getElementById("bridge-bar");
    bar.max = p.total || 1;
    bar.value = p.done;
    bar.textContent = `${p.done} of ${p.total}`;
  } else {
    progress.textContent = state.mode || "waiting for the shoe";
  }
  const wanted = document.getElementById("wanted");
  wanted.textContent = state.wanted ? `⏸ ${state.wanted.text}` : "";
  wanted.hidden = !state.wanted;
  document.getElementById("deck-loaded").disabled = !state.wanted;
  replace(document.getElementById("pockets"), ...Object.entries(state.pockets || {}).map(([s, n]) => {
    const box = el("span", null, "pocket");
    box.append(el("strong", s), el("span", ` ${n} / 13`));
    return box;
  }));
  replace(document.getElementById("boards"),
    row(["board", "status", "rule", "differences", "remedy", "history (Law 6D2)"], true),
    ...(state.boards || []).map((b) => row([String(b.board), boardCell(b), b.rule || "–",
      listCell(b.differences), b.ok ? "–" : (b.remedy || "–"), listCell(b.history)])));
  const audit = state.audit;
  document.getElementById("audit").textContent = audit
    ? `Shuffle audit (${audit.rule}): ${audit.alarm ? "✗ ALARM" : "✓ no alarm"} — ${audit.tests} tests, ` +
      `false-alarm rate ${audit.false_alarm_rate}${audit.alarm ? `. ${audit.evidence}. Remedy: ${audit.remedy}` : ""}`
    : "Shuffle audit: not run yet";
}

function renderBanner(banner) {
  const box = document.getElementById("banner");
  if (!banner) { box.hidden = true; return; }
  replace(box, el("strong", `${banner.title || banner.status}`), el("span", `${banner.rule}: ${banner.reason} `),
    el("span", `Remedy: ${banner.remedy}`, "remedy"));
  box.hidden = false;
}

// A table dealt by hand: what the dealer deals next, the cards counted at each seat, the
// exposures with their rule and remedy, meld read beside the tally, and each camera's picture.
function renderHand(state) {
  const prompt = document.getElementById("hand-prompt");
  prompt.textContent = state.prompt;
  prompt.classList.toggle("stopped", Boolean(state.stop));
  const answer = document.getElementById("answer-form");
  answer.hidden = !(state.stop && state.stop.answerable);
  document.getElementById("correct-read").disabled = !state.stop || state.stop.reason === "double-draw";
  const counts = document.getElementById("hand-counts");
  if (state.started) {
    replace(counts, row(["Seat", "Cards"], true),
      ...state.seats.map((s) => {
        const tr = row([`${s.name} (${s.seat})`, `${s.count} / ${s.expected}`]);
        tr.dataset.seat = s.seat;
        tr.classList.toggle("miscount", s.count > s.expected || (state.dealt >= state.size && s.count !== s.expected));
        return tr;
      }));
    const v = state.verdict;
    document.getElementById("hand-verdict").textContent =
      `${v.status}${v.rule ? ` (${v.rule})` : ""}: ${v.reason}${v.status !== "ok" ? ` — Remedy: ${v.remedy}` : ""}`;
  } else {
    replace(counts);
    document.getElementById("hand-verdict").textContent = "";
  }
  replace(document.getElementById("hand-exposures"), ...(state.exposures || []).map((x) => {
    const li = el("li");
    li.append(cardNode(x.card), el("span", `to ${x.seat} — ${x.rule}: ${x.status}. Remedy: ${x.remedy}`));
    return li;
  }));
  const meld = document.getElementById("hand-meld");
  const lines = (state.meld || []).map((m) => {
    const cards = el("span");
    for (const c of m.cards) cards.append(cardNode(c));
    const tr = row([m.seat, cards, m.points ?? "", m.tally ?? "",
      [m.not_dealt.length ? `not dealt: ${m.not_dealt.join(" ")}`
        : m.hand_known === false ? "hand not read" : "✓",
      m.unread ? `${m.unread} card${m.unread > 1 ? "s" : ""} not read: check by eye` : ""]
        .filter(Boolean).join("; ")]);
    tr.dataset.seat = m.seat;
    return tr;
  });
  replace(meld, ...(lines.length ? [row(["Seat", "Read", "Points", "Tally", "Check"], true), ...lines] : []));
  renderReads(state.reads || []);
  const zonesPanel = document.getElementById("zones-panel");
  zonesPanel.hidden = !(state.cameras || []).includes("table");
  if (!zonesPanel.hidden && !zonesShown) { zonesShown = true; loadZones(); }
  const cams = document.getElementById("hand-cameras");
  const have = new Set([...cams.querySelectorAll("img")].map((i) => i.dataset.camera));
  for (const name of state.cameras || []) {
    if (have.has(name)) continue;
    const figure = el("figure");
    const img = el("img");
    img.dataset.camera = name;
    img.alt = `${name} camera`;
    img.width = 240;
    figure.append(img, el("figcaption", name));
    cams.append(figure);
  }
}

// Each card the table camera read face up (an exposure, meld), for the operator to confirm
// or correct. A line is rebuilt only when what it shows changes, so a card being typed into
// its box survives the pushes that come with every card dealt.
function readStatus(r) {
  if (r.checked === "confirmed") return "confirmed by the operator";
  if (r.checked === "corrected") return `corrected by the operator (the camera read ${r.read ? cardText(r.read) : "nothing"})`;
  return r.read ? "read by the camera: confirm or correct" : "not read: check by eye and say which card";
}

function readLine(r) {
  const li = el("li", null, r.checked ? "checked" : r.card ? "" : "unread");
  li.dataset.slot = r.slot;
  li.append(cardNode(r.card), el("span", `${r.kind} at ${r.seat}: ${readStatus(r)} `));
  const form = el("form", null, "row operator-only check-read");
  const input = el("input");
  input.name = "card";
  input.maxLength = 4;
  input.placeholder = "QS";
  input.autocomplete = "off";
  input.setAttribute("aria-label", `the card ${r.kind} at ${r.seat} is`);
  const set = el("button", "Set the card", "set-read");
  set.type = "submit";
  form.append(input, set);
  if (r.read && !r.checked) {
    const confirm = el("button", "Confirm", "confirm-table-read");
    confirm.type = "button";
    confirm.addEventListener("click", () => act("check-read", { slot: r.slot, card: r.card }));
    form.append(confirm);
  }
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (await act("check-read", { slot: r.slot, card: input.value.trim() })) input.value = "";
  });
  li.append(form);
  return li;
}

function renderReads(reads) {
  const list = document.getElementById("hand-reads");
  // Untouched when nothing changed: moving a line would take the focus from its box.
  const sigs = reads.map((r) => JSON.stringify(r));
  if (sigs.join("\n") === [...list.children].map((li) => li.dataset.sig).join("\n")) return;
  const old = new Map([...list.children].map((li) => [li.dataset.slot, li]));
  replace(list, ...reads.map((r, i) => {
    const sig = sigs[i];
    const kept = old.get(String(r.slot));
    if (kept && kept.dataset.sig === sig) return kept;
    const li = readLine(r);
    li.dataset.sig = sig;
    return li;
  }));
}

// Seat zones: the operator takes a still from the table camera and clicks the table's four
// corners, or each seat's zone (four points a seat, N, E, S, W); the server checks them
// against the camera's frames and saves them, and the watcher counts into them.
const CORNERS = ["top-left", "top-right", "bottom-right", "bottom-left"];
const SEATS = ["N", "E", "S", "W"];
const zoneMarks = [];
let zonesShown = false;

function zoneMode() {
  return document.querySelector('input[name="zones-mode"]:checked').value;
}

function zonePointsWanted() {
  return zoneMode() === "corners" ? 4 : 16;
}

function showZoneStatus(z) {
  const status = document.getElementById("zones-status");
  status.classList.toggle("problem", Boolean(z.problem));
  const size = z.frame_size ? `${z.frame_size[0]}×${z.frame_size[1]}` : "";
  status.textContent = z.problem ? `✗ ${z.problem}`
    : z.zones ? `✓ calibrated for ${size} frames (${z.file})`
      : z.frame_size ? `not calibrated yet: take a still and mark the zones on it`
        : "waiting for the table camera's first frame";
}

async function loadZones() {
  const response = await fetch("/zones", { credentials: "same-origin" });
  if (response.ok) showZoneStatus(await response.json());
}

function drawZoneMarks() {
  const img = document.getElementById("zones-img");
  const svg = document.getElementById("zones-marks");
  svg.setAttribute("viewBox", `0 0 ${img.naturalWidth || 1} ${img.naturalHeight || 1}`);
  const ns = "http://www.w3.org/2000/svg";
  const shapes = [];
  const groups = zoneMode() === "corners" ? [zoneMarks] :
    SEATS.map((_, i) => zoneMarks.slice(4 * i, 4 * i + 4));
  for (const group of groups) {
    if (group.length > 2) {
      const poly = document.createElementNS(ns, "polygon");
      poly.setAttribute("points", group.map((p) => p.join(",")).join(" "));
      shapes.push(poly);
    }
  }
  for (const [x, y] of zoneMarks) {
    const dot = document.createElementNS(ns, "circle");
    dot.setAttribute("cx", x);
    dot.setAttribute("cy", y);
    dot.setAttribute("r", Math.max(4, (img.naturalWidth || 640) / 160));
    shapes.push(dot);
  }
  svg.replaceChildren(...shapes);
  const n = zoneMarks.length;
  const wanted = zonePointsWanted();
  document.getElementById("zones-save").disabled = n !== wanted;
  document.getElementById("zones-next").textContent = n >= wanted ? "all marked: save the zones"
    : zoneMode() === "corners" ? `click the table's ${CORNERS[n]} corner (North sits at the top edge)`
      : `click corner ${n % 4 + 1} of 4 of ${SEATS[Math.floor(n / 4)]}'s zone`;
}

function wireZones() {
  const img = document.getElementById("zones-img");
  document.getElementById("zones-still").addEventListener("click", () => {
    zoneMarks.length = 0;
    img.onload = () => { document.getElementById("zones-still-box").hidden = false; drawZoneMarks(); };
    img.onerror = () => showRefusal("the table camera has given no frame yet");
    img.src = `/camera/table/still.jpg?t=${Date.now()}`;
  });
  img.addEventListener("click", (e) => {
    if (zoneMarks.length >= zonePointsWanted()) return;
    const box = img.getBoundingClientRect();
    const x = (e.clientX - box.left) * img.naturalWidth / box.width;
    const y = (e.clientY - box.top) * img.naturalHeight / box.height;
    zoneMarks.push([Math.round(x * 10) / 10, Math.round(y * 10) / 10]);
    drawZoneMarks();
  });
  for (const radio of document.querySelectorAll('input[name="zones-mode"]')) {
    radio.addEventListener("change", () => { zoneMarks.length = 0; drawZoneMarks(); });
  }
  document.getElementById("zones-undo").addEventListener("click", () => { zoneMarks.pop(); drawZoneMarks(); });
  document.getElementById("zones-save").addEventListener("click", async () => {
    const body = zoneMode() === "corners" ? { corners: zoneMarks }
      : { zones: Object.fromEntries(SEATS.map((s, i) => [s, zoneMarks.slice(4 * i, 4 * i + 4)])) };
    body.replace = document.getElementById("zones-replace").checked;
    const data = await post("/zones", body);
    if (data) showZoneStatus(data);
    else loadZones();
  });
}

// Thumbnails refresh once a second whatever the log does: they are for aiming a camera.
function refreshCameras() {
  for (const img of document.querySelectorAll("#hand-cameras img")) {
    const fresh = new Image();
    fresh.onload = () => { img.src = fresh.src; };
    fresh.src = `/camera/${encodeURIComponent(img.dataset.camera)}.jpg?t=${Date.now()}`;
  }
}

function render(state) {
  const view = state.game === "bridge" ? "bridge" : state.game === "hand" ? "handdeal" : "pinochle";
  for (const id of ["bridge", "pinochle", "handdeal"]) document.getElementById(id).hidden = id !== view;
  renderBanner(state.banner);
  if (view === "bridge") renderBridge(state);
  else if (view === "handdeal") renderHand(state);
  else renderPinochle(state);
  document.body.dataset.version = state.version ?? "";
}

// Actions go out one at a time, in the order the operator made them: the server answers
// requests on several threads, and "21, Enter, P" must not arrive as a pass before the bid.
let queue = Promise.resolve();

function act(action, params) {
  const sent = queue.then(async () => {
    const data = await post(`/act/${action}`, params);
    if (data) render(Object.assign({ version: data.version }, data.state));
    return data;
  });
  queue = sent.catch(() => null);
  return sent;
}

function connect() {
  const link = document.getElementById("link");
  const source = new EventSource("/events");
  source.addEventListener("state", (e) => {
    const state = JSON.parse(e.data);
    state.version = e.lastEventId;
    render(state);
    link.textContent = "live";
  });
  source.onerror = () => {
    link.textContent = "reconnecting… (catching up from the log)";
    // A refusal (the spectator limit, 503) closes a stream for good: try again later.
    if (source.readyState === EventSource.CLOSED) setTimeout(connect, 10000);
  };
}

function setOperator(on, who) {
  document.body.dataset.operator = on ? "yes" : "no";
  document.getElementById("whoami").textContent = on ? "operator" : "spectator";
}

function wireControls() {
  document.getElementById("login").addEventListener("submit", async (e) => {
    e.preventDefault();
    const pin = document.getElementById("pin");
    const data = await post("/login", { pin: pin.value });
    pin.value = "";
    if (data) { csrf = data.csrf; setOperator(true); document.getElementById("bid").focus(); }
  });
  document.getElementById("logout").addEventListener("click", async () => {
    const data = await post("/logout", {});
    if (data) { csrf = data.csrf; setOperator(false); }
  });
  document.getElementById("pin-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const now = document.getElementById("pin-now");
    const next = document.getElementById("pin-new");
    const data = await post("/pin", { pin: now.value, new_pin: next.value });
    now.value = "";
    next.value = "";
    if (data) { csrf = data.csrf; showRefusal("PIN changed: every other session has ended"); }
  });
  document.getElementById("bid-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const input = document.getElementById("bid");
    const text = input.value.trim();
    if (!text) return;
    if (await act("bid", { amount: /^[0-9]+$/.test(text) ? Number(text) : text })) input.value = "";
  });
  for (const button of document.querySelectorAll("[data-act]")) {
    button.addEventListener("click", () => act(button.dataset.act, {}));
  }
  for (const button of document.querySelectorAll("[data-trump]")) {
    button.addEventListener("click", () => act("trump", { suit: button.dataset.trump }));
  }
  document.getElementById("expose-form").addEventListener("submit", (e) => {
    e.preventDefault();
    act("expose", { card: document.getElementById("expose-card").value.trim(),
                    seat: document.getElementById("expose-seat").value });
  });
  document.getElementById("answer-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const input = document.getElementById("answer-card");
    if (await act("correct-read", { card: input.value.trim() })) input.value = "";
  });
  document.getElementById("confirm-read").addEventListener("click", () => act("confirm-read", {}));
  wireZones();
  document.getElementById("counters-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const f = e.target;
    const num = (name) => (f.elements[name].value.trim() === "" ? null : Number(f.elements[name].value));
    act("counters", { NS: num("NS"), EW: num("EW"), tricks_NS: num("tricks_NS"), tricks_EW: num("tricks_EW") });
  });
  // Keyboard: digits then Enter bid, P passes, from anywhere on the page except other inputs.
  document.addEventListener("keydown", (e) => {
    if (document.body.dataset.operator !== "yes" || e.ctrlKey || e.metaKey || e.altKey) return;
    const bid = document.getElementById("bid");
    const target = e.target;
    if (target !== bid && (target.tagName === "INPUT" || target.tagName === "SELECT")) return;
    if (e.key === "p" || e.key === "P") { e.preventDefault(); bid.value = ""; act("pass", {}); return; }
    if (/^[0-9]$/.test(e.key) && target !== bid) { e.preventDefault(); bid.focus(); bid.value += e.key; }
  });
}

document.addEventListener("DOMContentLoaded", () => {
  setOperator(document.body.dataset.operator === "yes");
  wireControls();
  connect();
  setInterval(refreshCameras, 1000);
});
