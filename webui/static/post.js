// What the table's page and the director's page share to act: the CSRF token the server
// gave this visitor (replaced at each login and logout), and POSTing JSON with it. A refusal
// shows the server's reason in #refusal, which both pages have, and answers null.
"use strict";

let csrf = document.querySelector('meta[name="csrf-token"]').content;

function showRefusal(message) {
  const box = document.getElementById("refusal");
  box.textContent = message;
  box.hidden = !message;
}

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
    body: JSON.stringify(body || {}),
    credentials: "same-origin",
  });
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) {
    showRefusal(data.rule ? `${data.error} (${data.rule})` : data.error);
    return null;
  }
  showRefusal("");
  return data;
}
