// kscore serve: the page. The server does all the reading and scoring; this script keeps the
// game as the player sees it, writes it as .kingdom text and asks the server to score it.
"use strict";

const LIGHT = new Set(["wheat", "castle", "empty", "desert", "grassland"]);
const NAMES = { ".": "empty" };
const $ = (id) => document.getElementById(id);

let options = null;      // /api/options: games (letters), variants, quests
let doc = null;          // the last document the server scored
let history = [];        // .kingdom texts, for undo/redo
let position = -1;       // history[position] is what the page shows
let sent = 0;            // request counter: only the latest answer is shown
let picked = null;       // {k, r, c} of the square being changed
let edited = new Set();  // "k,r,c" squares changed on this page

// ------------------------------------------------------------------ the game as text

function lettersOf(game) {
  const letters = options.games[game].letters; // letter -> terrain
  const byTerrain = {};
  for (const [letter, terrain] of Object.entries(letters)) byTerrain[terrain] = letter;
  return { letters, byTerrain };
}

function token(k, r, c, byTerrain) {
  const terrain = k.terrain[r][c];
  const letter = byTerrain[terrain];
  if (letter === undefined) throw new Error(`${terrain} has no letter in ${doc.rules.game}`);
  let text = letter;
  if (!["castle", "empty", "volcano"].includes(terrain)) {
    text += k.crowns[r][c];
    const giants = k.giants[r][c];
    if (giants) text += giants === 1 ? "g" : "g" + giants;
  }
  if (k.uncertain.some(([ur, uc]) => ur === r && uc === c)) text += "?";
  return text;
}

function gameText(d) {
  const rules = d.rules;
  const lines = [];
  if (rules.game !== "kingdomino") lines.push("game: " + rules.game);
  if (rules.variants.length) lines.push("variants: " + rules.variants.join(", "));
  if (rules.quests.length) lines.push("quests: " + rules.quests.join(", "));
  if (rules.tileset === "none") lines.push("tileset: none");
  else if (rules.tileset !== options.games[rules.game].tileset) lines.push("tileset: " + rules.tileset);
  const { byTerrain } = lettersOf(rules.game);
  for (const k of d.kingdoms) {
    lines.push("", `[${k.name}]`);
    for (const [key, value] of Object.entries(k.extras || {})) lines.push(`${key}: ${value}`);
    for (let r = 0; r < k.size; r++) {
      const row = [];
      for (let c = 0; c < k.size; c++) row.push(token(k, r, c, byTerrain));
      lines.push(row.join(" "));
    }
  }
  return lines.join("\n") + "\n";
}

// ------------------------------------------------------------------ talking to the server

function say(text, kind = "") {
  const status = $("status");
  status.textContent = text;
  status.className = kind;
}

// What an upload gave: each photo that failed, then each note, one line each (several run together otherwise).
function sayLines(problems, notes) {
  const status = $("status");
  status.replaceChildren(...problems.map((p) => line(p, "bad")), ...notes.map((n) => line(n, "")));
  status.className = "";
}

function line(text, kind) {
  const shown = document.createElement("span");
  shown.className = "line " + kind;
  shown.textContent = text;
  return shown;
}

async function api(path, init) {
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new Error("the server cannot be reached (is kscore serve still running?)");
  }
  let body = null;
  try { body = await response.json(); } catch (e) { /* not JSON: said below */ }
  if (!response.ok) {
    const each = body && body.failures && body.failures.map((f) => f.error).join("\n");
    throw new Error(each || (body && body.error) || `the server answered ${response.status}`);
  }
  return body;
}

// Score a changed game: shown at once, the server's score replaces the guess when it answers.
async function rescore(changed, remember = true) {
  let text;
  try {
    text = gameText(changed);
  } catch (e) {
    say(e.message, "bad");
    render();
    return;
  }
  const mine = ++sent;
  doc = changed;
  render();
  say("scoring...", "busy");
  try {
    const answer = await api("/api/score", { method: "POST", headers: { "Content-Type": "text/plain" }, body: text });
    if (mine !== sent) return;
    if (remember) {
      history = history.slice(0, position + 1);
      history.push(text);
      position = history.length - 1;
    }
    show(answer);
    say("");
  } catch (e) {
    if (mine !== sent) return;
    say(e.message, "bad");
    await reload(); // back to what the server holds
  }
}

async function reload() {
  try {
    show(await api("/api/game"));
  } catch (e) {
    say(e.message, "bad");
  }
}

function show(answer) {
  doc = answer;
  render();
}

async function upload(files) {
  if (!files.length) return;
  const form = new FormData();
  for (const file of files) form.append("photo", file, file.name);
  say(files.length === 1 ? "reading the photo..." : `reading ${files.length} photos...`, "busy");
  $("camera").disabled = true;
  try {
    const answer = await api("/api/photos", { method: "POST", body: form });
    show(answer);
    history = history.slice(0, position + 1);
    history.push(gameText(answer));
    position = history.length - 1;
    sayLines((answer.failures || []).map((f) => f.error), answer.notes || []);
  } catch (e) {
    say(e.message, "bad");
  } finally {
    $("camera").disabled = false;
    $("camera").value = "";
    render();
  }
}

async function travel(step) {
  const target = position + step;
  if (target < 0 || target >= history.length) return;
  const mine = ++sent;
  say("scoring...", "busy");
  try {
    const answer = await api("/api/score", { method: "POST", headers: { "Content-Type": "text/plain" }, body: history[target] });
    if (mine !== sent) return;
    position = target;
    show(answer);
    say(step < 0 ? "undone" : "redone");
  } catch (e) {
    say(e.message, "bad");
  }
}

// ------------------------------------------------------------------ changes

function copy(d) { return JSON.parse(JSON.stringify(d)); }

function setSquare(k, r, c, terrain, crowns) {
  const changed = copy(doc);
  const kingdom = changed.kingdoms[k];
  const scores = !["castle", "empty", "volcano"].includes(terrain);
  kingdom.terrain[r][c] = terrain;
  kingdom.crowns[r][c] = scores ? crowns : 0;
  kingdom.giants[r][c] = scores ? Math.min(kingdom.giants[r][c], kingdom.crowns[r][c]) : 0;
  kingdom.uncertain = kingdom.uncertain.filter(([ur, uc]) => ur !== r || uc !== c); // checked by the player
  edited.add(`${k},${r},${c}`);
  rescore(changed);
}

function rename(k, name) {
  const changed = copy(doc);
  changed.kingdoms[k].name = name.trim();
  rescore(changed);
}

function setRules(update) {
  const changed = copy(doc);
  update(changed.rules);
  rescore(changed);
}

// ------------------------------------------------------------------ drawing

function terrainStyle(terrain) { return `--t: var(--${terrain}, #999)`; }

function render() {
  if (!doc || !options) return;
  $("undo").disabled = position <= 0;
  $("redo").disabled = position >= history.length - 1;
  $("empty").hidden = doc.kingdoms.length > 0;
  $("ranking-card").hidden = doc.kingdoms.length === 0;
  const body = $("ranking").tBodies[0];
  body.innerHTML = "";
  for (const place of doc.ranking || []) {
    const row = body.insertRow();
    row.innerHTML = `<td>${place.place}</td><td></td><td class="num">${place.score}</td><td></td>`;
    row.cells[1].textContent = place.name;
    row.cells[3].textContent = place.tiebreak;
    row.title = place.detail;
  }
  const box = $("kingdoms");
  box.innerHTML = "";
  doc.kingdoms.forEach((k, index) => box.appendChild(kingdomCard(k, index)));
  renderOptions();
  renderPicker();
}

function kingdomCard(k, index) {
  const card = document.createElement("section");
  card.className = "card kingdom";
  card.dataset.index = index;
  const head = document.createElement("div");
  head.className = "kingdom-head";
  const name = document.createElement("input");
  name.value = k.name;
  name.setAttribute("aria-label", "player name");
  name.addEventListener("change", () => rename(index, name.value));
  const score = document.createElement("div");
  score.className = "score";
  score.innerHTML = `<span class="points">${k.score}</span> <small>points</small>`;
  head.append(name, score);
  card.appendChild(head);

  const board = document.createElement("div");
  board.className = "board" + (k.view ? "" : " typed");
  if (k.view) board.style.backgroundImage = `url("/${k.view}")`;
  board.style.gridTemplateColumns = `repeat(${k.size}, 1fr)`;
  const unsure = new Set(k.uncertain.map(([r, c]) => `${r},${c}`));
  const { byTerrain } = lettersOf(doc.rules.game);
  for (let r = 0; r < k.size; r++) {
    for (let c = 0; c < k.size; c++) {
      const terrain = k.terrain[r][c];
      const cell = document.createElement("button");
      cell.className = "cell";
      if (unsure.has(`${r},${c}`)) cell.classList.add("unsure");
      if (edited.has(`${index},${r},${c}`)) cell.classList.add("edited");
      if (picked && picked.k === index && picked.r === r && picked.c === c) cell.classList.add("selected");
      cell.dataset.r = r;
      cell.dataset.c = c;
      cell.style = terrainStyle(terrain);
      const crowns = k.crowns[r][c];
      const label = (byTerrain[terrain] || "?") + (crowns ? "\u265B".repeat(crowns) : "");
      cell.setAttribute("aria-label", `row ${r + 1}, column ${c + 1}: ${terrain}, ${crowns} crowns`);
      const tag = document.createElement("span");
      tag.className = "tag" + (LIGHT.has(terrain) ? " light" : "");
      tag.textContent = label;
      cell.appendChild(tag);
      cell.addEventListener("click", () => { picked = { k: index, r, c }; render(); });
      board.appendChild(cell);
    }
  }
  card.appendChild(board);
  const [rows, cols] = k.extent;
  if (rows < k.size || cols < k.size) { // laid smaller than its frame: say so, or a player suspects a misread
    const extent = document.createElement("p");
    extent.className = "extent";
    extent.textContent = `Laid ${rows}x${cols} in a ${k.size}x${k.size} grid (rows x columns); the rest is table.`;
    card.appendChild(extent);
  }
  if (unsure.size) {
    const note = document.createElement("p");
    note.className = "legend";
    note.textContent = `${unsure.size} square${unsure.size > 1 ? "s" : ""} to check (framed in yellow): tap to fix.`;
    card.appendChild(note);
  }

  const table = document.createElement("table");
  table.className = "properties";
  table.innerHTML = `<thead><tr><th>Property</th><th class="num">Squares</th><th class="num">Crowns</th><th class="num">Points</th></tr></thead>`;
  const tbody = table.createTBody();
  const scoring = k.properties.filter((p) => p.points > 0);
  for (const p of scoring) {
    const row = tbody.insertRow();
    row.innerHTML = `<td><span class="dot" style="${terrainStyle(p.terrain)}"></span>${p.terrain}</td>` +
      `<td class="num">${p.squares}</td><td class="num">${p.crowns}</td><td class="num">${p.points}</td>`;
  }
  const others = k.properties.length - scoring.length;
  if (others) { // a phone has no room for a row per crownless property
    const row = tbody.insertRow();
    row.className = "others";
    row.innerHTML = `<td colspan="3">${others} ${others > 1 ? "properties" : "property"} without a crown</td><td class="num">0</td>`;
  }
  card.appendChild(table);
  const lists = [["lines", k.lines.map((l) => `${l.name}: ${l.points > 0 ? "+" : ""}${l.points} (${l.reason})`)],
                 ["warnings", k.warnings]];
  for (const [kind, items] of lists) {
    if (!items.length) continue;
    const list = document.createElement("ul");
    list.className = kind;
    for (const item of items) {
      const li = document.createElement("li");
      li.textContent = item;
      list.appendChild(li);
    }
    card.appendChild(list);
  }
  return card;
}

function renderPicker() {
  const sheet = $("picker");
  const k = picked && doc.kingdoms[picked.k];
  if (!k || picked.r >= k.size) { sheet.hidden = true; picked = null; return; }
  sheet.hidden = false;
  const { r, c } = picked;
  const terrain = k.terrain[r][c];
  const crowns = k.crowns[r][c];
  $("picker-title").textContent = `${k.name}: row ${r + 1}, column ${c + 1}`;
  const terrains = $("picker-terrains");
  terrains.innerHTML = "";
  for (const [letter, name] of Object.entries(lettersOf(doc.rules.game).letters)) {
    const b = document.createElement("button");
    b.className = "terrain" + (name === terrain ? " on" : "") + (LIGHT.has(name) ? " light" : "");
    b.style = terrainStyle(name);
    b.dataset.letter = letter;
    b.innerHTML = `<b>${letter}</b><span>${NAMES[letter] || name}</span>`;
    b.addEventListener("click", () => setSquare(picked.k, r, c, name, crowns));
    terrains.appendChild(b);
  }
  const row = $("picker-crowns");
  row.innerHTML = "";
  const scores = !["castle", "empty", "volcano"].includes(terrain);
  for (let n = 0; n <= 3; n++) {
    const b = document.createElement("button");
    b.className = "crown" + (n === crowns ? " on" : "");
    b.dataset.crowns = n;
    b.textContent = n;
    b.disabled = !scores;
    b.addEventListener("click", () => setSquare(picked.k, r, c, terrain, n));
    row.appendChild(b);
  }
}

function renderOptions() {
  const rules = doc.rules;
  const game = $("game");
  if (!game.options.length) {
    for (const name of Object.keys(options.games)) game.add(new Option(name, name));
  }
  game.value = rules.game;
  fillChecks($("variants"), options.variants, rules.variants, (name, on) =>
    setRules((r) => { r.variants = on ? [...r.variants, name] : r.variants.filter((v) => v !== name); }));
  fillChecks($("quests"), options.quests, rules.quests, (name, on) =>
    setRules((r) => { r.quests = on ? [...r.quests, name] : r.quests.filter((q) => q !== name); }));
  $("tileset").checked = rules.tileset !== "none";
}

function fillChecks(box, all, chosen, change) {
  box.innerHTML = "";
  for (const [name, text] of Object.entries(all)) {
    const label = document.createElement("label");
    const check = document.createElement("input");
    check.type = "checkbox";
    check.checked = chosen.includes(name);
    check.dataset.name = name;
    check.addEventListener("change", () => change(name, check.checked));
    label.append(check, ` ${name}: ${text}`);
    box.appendChild(label);
  }
}

// ------------------------------------------------------------------ start

async function start() {
  $("camera").addEventListener("change", (e) => upload([...e.target.files]));
  $("undo").addEventListener("click", () => travel(-1));
  $("redo").addEventListener("click", () => travel(1));
  $("picker-done").addEventListener("click", () => { picked = null; render(); });
  $("game").addEventListener("change", (e) => setRules((r) => { r.game = e.target.value; r.tileset = options.games[r.game].tileset; }));
  $("tileset").addEventListener("change", (e) =>
    setRules((r) => { r.tileset = e.target.checked ? options.games[r.game].tileset : "none"; }));
  try {
    options = await api("/api/options");
    doc = await api("/api/game");
  } catch (e) {
    say(e.message, "bad");
    return;
  }
  if (doc.kingdoms.length) { history = [gameText(doc)]; position = 0; }
  render();
}

start();
