// The director's page: follow the club's state as it is pushed, and send the director's
// actions. Every string from the server goes through textContent, never innerHTML.
"use strict";

let director = document.body.dataset.director === "yes";
let lastState = null;

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

function field(dl, name, value, cls) {
  if (value === undefined || value === null || value === "") return;
  dl.append(el("dt", name), el("dd", value, cls));
}

function tableCard(t, director) {
  const card = el("article", null, "tablecard" + (t.revoked ? " revoked" : ""));
  card.dataset.table = t.table;
  const head = el("h3", t.table);
  if (t.revoked) head.append(el("span", "revoked"));
  else if (director) {
    const revoke = el("button", "Revoke token", "revoke");
    revoke.addEventListener("click", () => post("/act/revoke", { table: t.table }));
    head.append(revoke);
  }
  card.append(head);
  const dl = el("dl");
  field(dl, "game", t.game);
  field(dl, "phase", t.phase);
  if (t.hand) field(dl, "hand", `${t.hand}, dealer ${t.dealer}`);
  field(dl, "board", t.board);
  if (t.verdict) {
    const v = t.verdict;
    field(dl, "verdict", `${v.status}${v.rule ? " (" + v.rule + ")" : ""}: ${v.reason}`,
          v.status === "ok" ? "verdict-ok" : "call");
    if (v.status !== "ok") field(dl, "remedy", v.remedy);
  }
  if (t.redeals) field(dl, "redeals", `${t.redeals}${t.last_redeal ? ": " + t.last_redeal : ""}`);
  for (const c of t.calls) field(dl, "director", `${c.what} ${c.rule}: ${c.reason}`, "call");
  for (const f of t.faults) field(dl, "machine", `${f.kind}${f.detail ? ": " + f.detail : ""}`, "fault");
  field(dl, "events", t.events);
  field(dl, "last", t.last_event, "last-event");
  card.append(dl);
  return card;
}

function boardBlock(b) {
  const box = el("div", null, "board");
  box.dataset.board = b.board;
  const record = b.record ? `record: ${b.record.source} at ${b.record.table}` : "no dealt record";
  box.append(el("strong", `Board ${b.board}, session ${b.session}`), el("span", ` — ${record}. ${b.rule}: ${b.remedy}`));
  const list = el("ul");
  for (const c of b.copies) {
    const item = el("li", `${c.table} (${c.source}): ${c.status}${c.laws.length ? " [" + c.laws.join(", ") + "]" : ""}${c.detail ? " — " + c.detail : ""}`,
                    "copy" + (c.status === "match" ? "" : " bad"));
    item.dataset.table = c.table;
    item.dataset.status = c.status;
    list.append(item);
  }
  box.append(list);
  return box;
}

function render(state, isDirector) {
  document.body.dataset.director = isDirector ? "yes" : "no";
  document.getElementById("issue").hidden = !isDirector;
  document.getElementById("whoami").textContent = isDirector ? "director" : "spectator";
  document.getElementById("tables").replaceChildren(...state.tables.map((t) => tableCard(t, isDirector)));
  const fouled = document.getElementById("fouled");
  fouled.className = "fouled";
  fouled.replaceChildren(...(state.fouled.length ? state.fouled.map(boardBlock) : [el("p", "none")]));
  const repeats = document.getElementById("repeats");
  repeats.replaceChildren(...(state.repeats.length ? state.repeats.map((r) => {
    const box = el("div", `${r.status} (${r.law}): ${r.reason}; ${r.remedy}. Seen: ` +
                   r.sightings.map((s) => `board ${s.board ?? "?"} at ${s.table}, session ${s.session} (${s.source})`).join("; "),
                   "repeat");
    box.dataset.hash = r.hash;
    return box;
  }) : [el("p", "none")]));
  const boards = document.getElementById("boards");
  const rows = [];
  const head = el("tr");
  for (const h of ["session", "board", "record", "copies"]) head.append(el("th", h));
  rows.push(head);
  for (const b of state.boards) {
    const tr = el("tr");
    tr.append(el("td", b.session), el("td", b.board),
              el("td", b.record ? `${b.record.source} at ${b.record.table}` : "none"),
              el("td", b.copies.map((c) => `${c.table}: ${c.status}`).join(", ") || "—"));
    rows.push(tr);
  }
  boards.replaceChildren(...rows);
  const link = document.getElementById("link");
  link.textContent = state.store_error ? "store unreachable: " + state.store_error : "live";
  link.className = state.store_error ? "link down" : "link";
}

// The club's state is pushed on /events as Server-Sent Events; the browser reconnects by itself
// and the server sends what was missed.
function follow() {
  const link = document.getElementById("link");
  const source = new EventSource("/events");
  source.addEventListener("state", (e) => {
    lastState = JSON.parse(e.data);
    render(lastState, director);
  });
  source.onerror = () => {
    link.textContent = "page server unreachable; retrying";
    // A refusal (the spectator limit, 503) closes a stream for good: try again later.
    if (source.readyState === EventSource.CLOSED) setTimeout(follow, 10000);
  };
}

document.getElementById("login").addEventListener("submit", async (event) => {
  event.preventDefault();
  const pin = document.getElementById("pin");
  const data = await post("/login", { pin: pin.value });
  pin.value = "";
  if (data) {
    csrf = data.csrf;
    director = true;
    if (lastState) render(lastState, director);
  }
});

document.getElementById("issue").addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = document.getElementById("new-table");
  const data = await post("/act/token", { table: name.value });
  if (data) document.getElementById("token").textContent = `${data.table}: ${data.token}`;
});

follow();
