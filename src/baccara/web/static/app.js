// baccara serve: the app's own script (no library). Pages work without it: it only adds keyboard
// shortcuts on the live shoe and polls a background job's progress.
document.addEventListener("keydown", (e) => {
  const undo = document.getElementById("undo");
  const box = document.getElementById("coup");
  if (undo && e.key === "z" && (e.ctrlKey || e.metaKey) && (!box || box.value === "")) { e.preventDefault(); undo.click(); }
});
document.addEventListener("DOMContentLoaded", () => {
  const coup = document.getElementById("coup");  // a refused coup comes back: the caret after it, to correct it
  if (coup && coup.value) { coup.focus(); coup.setSelectionRange(coup.value.length, coup.value.length); }
  const job = document.querySelector("[data-job]");
  if (!job || !["queued", "running"].includes(job.dataset.state)) return;
  const bar = job.querySelector("progress"), text = job.querySelector(".status");
  const poll = async () => {
    const r = await fetch(`/api/jobs/${job.dataset.job}`);
    const s = await r.json();
    if (bar && s.total) { bar.max = s.total; bar.value = s.done; }
    if (text) text.textContent = s.state + (s.total ? ` (${s.done}/${s.total} ${s.unit || ""})` : "");
    if (s.state === "running" || s.state === "queued") setTimeout(poll, 500); else location.reload();
  };
  setTimeout(poll, 500);
});
