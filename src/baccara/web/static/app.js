// baccara serve: the app's own script (no library). Pages work without it: it only adds keyboard
// shortcuts and the caret on the live shoe, polls a background job's progress, shows that a slow
// page is being computed, and opens every exact value at once.
document.addEventListener("keydown", (e) => {
  const undo = document.getElementById("undo");
  const box = document.getElementById("coup");
  if (undo && e.key === "z" && (e.ctrlKey || e.metaKey) && (!box || box.value === "")) { e.preventDefault(); undo.click(); }
});

// The live shoe: a refused coup comes back in its box with the caret after it, ready to be corrected.
function coupCaret() {
  const box = document.getElementById("coup");
  if (!box || !box.value) return;
  box.focus();
  box.setSelectionRange(box.value.length, box.value.length);
}

// A background job (a simulation, a sweep): its progress bar and state, polled until it ends.
function pollJob() {
  const job = document.querySelector("[data-job]");
  if (!job || !["queued", "running"].includes(job.dataset.state)) return;
  const bar = job.querySelector("progress"), text = job.querySelector(".status");
  const unit = job.dataset.unit || "steps";
  const poll = async () => {
    const r = await fetch(`/api/jobs/${job.dataset.job}`);
    const s = await r.json();
    if (bar && s.total) { bar.max = s.total; bar.value = s.done; }
    if (text) text.textContent = s.state + (s.total ? ` (${s.done.toLocaleString("en")} of ${s.total.toLocaleString("en")} ${job.dataset.unit ? unit : (s.unit || unit)})` : "");
    if (s.state === "running" || s.state === "queued") setTimeout(poll, 500); else location.reload();
  };
  setTimeout(poll, 500);
}

// A slow page (form data-busy="..."): once sent, say so, with a running bar and the seconds waited,
// until the answer's page replaces this one.
function busyForms() {
  for (const form of document.querySelectorAll("form[data-busy]")) {
    form.addEventListener("submit", () => {
      let note = document.getElementById("busy");
      if (!note) {
        note = document.createElement("p");
        note.id = "busy";
        note.className = "busy";
        note.setAttribute("role", "status");
        form.after(note);
      }
      const started = Date.now();
      const say = () => { note.textContent = `${form.dataset.busy} Working: ${Math.round((Date.now() - started) / 1000)} s`; };
      say();
      const bar = document.createElement("progress");  // no value: the browser shows it running
      note.append(bar);
      const tick = setInterval(() => { say(); note.append(bar); }, 1000);
      const button = form.querySelector("button[type=submit]");
      if (button) button.disabled = true;
      window.addEventListener("pagehide", () => clearInterval(tick), { once: true });
    });
  }
  // back to a page kept in the browser's cache: not busy any more
  window.addEventListener("pageshow", (e) => {
    if (!e.persisted) return;
    document.getElementById("busy")?.remove();
    for (const b of document.querySelectorAll("form[data-busy] button[type=submit]")) b.disabled = false;
  });
}

// Every exact value at once: the footer's button opens (or closes) each number's <details>.
function exactAll() {
  const button = document.getElementById("exact-all");
  const all = document.querySelectorAll("details.x");
  if (!button || all.length === 0) return;
  button.hidden = false;
  button.addEventListener("click", () => {
    const open = button.getAttribute("aria-pressed") !== "true";
    for (const d of all) d.open = open;
    button.setAttribute("aria-pressed", String(open));
    button.textContent = open ? "Hide the exact values" : "Show every exact value";
  });
}

document.addEventListener("DOMContentLoaded", () => {
  coupCaret();
  pollJob();
  busyForms();
  exactAll();
});
