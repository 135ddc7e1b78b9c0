"use strict";
// The certify explorer: walks the embedded labels of a table certificate. Every string from the
// certificate reaches the page through textContent, never as markup.
(async function () {
  const DATA = JSON.parse(document.getElementById("certify-data").textContent);
  const G = DATA.game;
  const CELLS = G.rows * G.cols;
  const POW3 = Array.from({ length: CELLS }, (_, i) => 3 ** i);
  const MARK = ["", "X", "O"];
  const WORD = { 1: "win", 0: "draw", "-1": "loss" };
  const $ = (id) => document.getElementById(id);
  const num = (n) => n.toLocaleString("en-US");

  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") el.className = v;
      else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v);
    }
    for (const c of children) if (c !== null && c !== undefined) el.append(c);
    return el;
  }

  async function unpack(text, Type) {
    const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
    return new Type(await new Response(stream).arrayBuffer());
  }

  const L = DATA.labels;
  const codes = await unpack(L.codes, Uint32Array);
  const values = await unpack(L.values, Int8Array);
  const distances = await unpack(L.distances, Uint8Array);
  const margins = L.margins ? await unpack(L.margins, Int8Array) : null;
  const strategies = {};
  for (const s of DATA.strategies) {
    const sc = await unpack(s.codes, Uint32Array), cells = await unpack(s.cells, Uint8Array), marks = await unpack(s.marks, Uint8Array);
    const map = new Map();
    sc.forEach((c, i) => map.set(c, { cell: cells[i], mark: marks[i] }));
    strategies[s.player] = { info: s, moves: map };
  }

  // ---- the game, from the embedded rules ------------------------------------------------------
  const board = (code) => POW3.map((p) => Math.floor(code / p) % 3);
  const toMove = (code) => 1 + (board(code).filter((m) => m).length % 2);
  const marksFor = (player) => (G.marks === "either" ? [1, 2] : G.marks === "x-only" ? [1] : [player]);
  const moveName = (m) => MARK[m.mark] + m.cell;
  const moveSpan = (m) => h("span", { class: "mv" }, h("span", { class: `mk${m.mark}` }, MARK[m.mark]), String(m.cell));
  function label(code) {
    let lo = 0, hi = codes.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (codes[mid] === code) return { value: values[mid], distance: distances[mid], margin: margins ? margins[mid] : null };
      if (codes[mid] < code) lo = mid + 1; else hi = mid - 1;
    }
    return null; // beyond the embedded horizon
  }
  const completeLines = (b) => G.lines.filter((line) => b[line[0]] && line.every((c) => b[c] === b[line[0]]));
  function moves(code) {
    const lab = label(code);
    if (!lab || lab.distance === 0) return [];
    const b = board(code), list = [];
    for (let cell = 0; cell < CELLS; cell++) {
      if (b[cell]) continue;
      for (const mark of marksFor(toMove(code))) {
        const child = code + mark * POW3[cell], cl = label(child);
        list.push({ cell, mark, child, known: !!cl, value: cl ? -cl.value : null,
          plies: cl ? cl.distance + 1 : null, margin: cl && cl.margin !== null ? -cl.margin : null });
      }
    }
    const key = (m) => [m.value, m.margin || 0, m.value > 0 ? -m.plies : m.value < 0 ? m.plies : 0];
    const known = list.filter((m) => m.known);
    if (known.length) {
      const top = known.map(key).reduce((a, b) => (cmp(a, b) >= 0 ? a : b));
      for (const m of known) m.best = cmp(key(m), top) === 0;
    }
    return list;
  }
  const cmp = (a, b) => a.reduce((r, x, i) => r || (x > b[i] ? 1 : x < b[i] ? -1 : 0), 0);
  function outcome(code) {
    const lab = label(code), p = toMove(code);
    if (lab.value === 0) return "a draw";
    return `player ${lab.value > 0 ? p : 3 - p} wins`;
  }
  const plies = (n) => (n === 1 ? "1 ply" : `${n} plies`);
  const marginText = (margin) => (margin === null || margin === undefined ? "" : `, ${margin > 0 ? "+" : ""}${margin} line${Math.abs(margin) === 1 ? "" : "s"}`);
  const resultText = (value, n, margin) => (value === 0 ? "draw" : `${WORD[value]} in ${plies(n)}${marginText(margin)}`);

  // ---- state: the line of play and where we are in it ----------------------------------------
  let line = [];      // moves {cell, mark} from the empty board
  let at = 0;         // how many of them are on the board
  let selected = -1;  // index of the highlighted legal move (keyboard)
  const codeAt = (n) => line.slice(0, n).reduce((c, m) => c + m.mark * POW3[m.cell], 0);
  const strategyPlayer = () => Number($("strategy-player").value || 0);

  function play(move) {
    line = line.slice(0, at).concat([{ cell: move.cell, mark: move.mark }]);
    at = line.length;
    selected = -1;
    render();
  }
  function go(n) { at = Math.max(0, Math.min(line.length, n)); selected = -1; render(); }
  function setLine(moveList) { line = moveList.slice(); at = line.length; selected = -1; render(); }

  // ---- drawing ---------------------------------------------------------------------------------
  function valueSpan(value, n, margin) {
    if (value === null) return h("span", { class: "v" }, "not embedded");
    return h("span", { class: `v ${WORD[value]}` }, resultText(value, n, margin));
  }

  function renderBoard(code, legal) {
    const el = $("board");
    el.replaceChildren();
    el.style.gridTemplateColumns = `repeat(${G.cols}, 1fr)`;
    const b = board(code), lab = label(code);
    const onLine = new Set(completeLines(b).flat());
    const last = at > 0 ? line[at - 1].cell : -1;
    const strat = strategies[toMove(code)];
    const chosen = strat && strat.moves.get(code);
    for (let cell = 0; cell < CELLS; cell++) {
      const cls = ["cell"];
      if (onLine.has(cell) && lab && lab.distance === 0) cls.push("line");
      if (cell === last) cls.push("last");
      if (b[cell]) {
        el.append(h("div", { class: `${cls.join(" ")} filled m${b[cell]}`, role: "img",
          "aria-label": `cell ${cell}: ${MARK[b[cell]]}` }, h("span", { class: "num" }, String(cell)), MARK[b[cell]]));
        continue;
      }
      const here = legal.filter((m) => m.cell === cell);
      const div = h("div", { class: cls.join(" "), role: "group", "aria-label": `cell ${cell}: empty` },
        h("span", { class: "num" }, String(cell)));
      for (const m of here) {
        const i = legal.indexOf(m);
        const isStrat = chosen && chosen.cell === m.cell && chosen.mark === m.mark;
        const words = m.known ? resultText(m.value, m.plies, m.margin) : "not embedded";
        const btn = h("button", { type: "button", "data-move": moveName(m),
          class: `half m${m.mark} ${m.known ? WORD[m.value] + "-bg" : ""}${isStrat ? " strategy" : ""}${i === selected ? " selected" : ""}`,
          title: `play ${moveName(m)}: ${words} for the mover${m.best ? " (best)" : ""}`,
          "aria-label": `play ${moveName(m)}: ${words}${m.best ? ", best" : ""}${isStrat ? ", the strategy's move" : ""}`,
          onclick: () => play(m) },
        here.length > 1 || G.marks !== "own" ? h("span", { class: "mk" }, MARK[m.mark]) : null,
        h("span", {}, m.known ? (m.value > 0 ? `W${m.plies}` : m.value < 0 ? `L${m.plies}` : "D") : "?"),
        m.best ? "★" : null);
        div.append(btn);
      }
      if (!here.length) div.append(h("span", {}, ""));
      el.append(div);
    }
  }

  function renderStatus(code, legal) {
    const lab = label(code), p = toMove(code);
    let text;
    if (!lab) text = `Beyond the embedded horizon (${DATA.horizon} plies): rerun certify explore with a larger --plies to see this position.`;
    else if (lab.distance === 0) text = `Game over: ${outcome(code)}.`;
    else {
      const who = `Player ${p} to move (${marksFor(p).map((m) => MARK[m]).join(" or ")})`;
      text = `${who}: ${lab.value === 0 ? "a draw" : (lab.value > 0 ? "wins" : "loses") + " in " + plies(lab.distance)} with best play.`;
    }
    $("status").textContent = text;
    $("hint").textContent = legal.length
      ? (G.marks === "either" ? "Click the X or O half of an empty cell to play that mark there." : "Click an empty cell to play there.") +
        " W5 = win in 5 plies, L4 = loss in 4, D = draw (for the player moving)."
      : "";
  }

  function renderMoves(code, legal) {
    const body = $("moves").tBodies[0];
    body.replaceChildren();
    const strat = strategies[toMove(code)];
    const chosen = strat && strat.moves.get(code);
    legal.forEach((m, i) => {
      const isStrat = chosen && chosen.cell === m.cell && chosen.mark === m.mark;
      const row = h("tr", { class: `move${i === selected ? " selected" : ""}${isStrat ? " strategy" : ""}`,
        "data-move": moveName(m), "data-value": m.known ? WORD[m.value] : "unknown", "data-plies": m.known ? String(m.plies) : "",
        onclick: () => play(m) },
      h("td", {}, h("button", { type: "button", "aria-label": `play ${moveName(m)}` }, moveSpan(m))),
      h("td", {}, h("span", {}, valueSpan(m.value, m.plies, m.margin))),
      h("td", {}, h("span", {}, m.known ? String(m.plies) : "")),
      h("td", {}, h("span", {}, m.best ? h("span", { class: "best", title: "best move" }, "★ best ") : null,
        isStrat ? h("span", { class: "strat-mark", title: "the certified strategy plays this" }, "◆ strategy") : null)));
      body.append(row);
    });
    if (!legal.length) body.append(h("tr", {}, h("td", { colspan: "4" }, h("span", {}, label(code) ? "No legal moves: the game is over." : "Not embedded."))));
  }

  function renderHistory() {
    const list = $("movelist");
    list.replaceChildren();
    if (!line.length) list.append(h("li", { class: "empty" }, "No moves yet: click the board or a move in the table."));
    line.forEach((m, i) => list.append(h("li", {}, h("button", { type: "button",
      "aria-current": i + 1 === at ? "step" : "false", onclick: () => go(i + 1) }, `${i + 1}. `, moveSpan(m)))));
    $("first").disabled = $("back").disabled = at === 0;
    $("forward").disabled = $("last").disabled = at === line.length;
  }

  function atlasDump(code, legal) {
    // seed 000's dump: the code, the playfield, then "* move : x at 1 => sitcode: 9374 win"
    const b = board(code), rows = [];
    for (let r = 0; r < G.rows; r++)
      rows.push(b.slice(r * G.cols, (r + 1) * G.cols).map((m) => ` ${m ? MARK[m].toLowerCase() : " "} `).join("|"));
    const sep = Array(G.cols).fill("---").join("+");
    const lines = [`code: ${code}`, rows.join(`\n${sep}\n`)];
    for (const m of legal) lines.push(`* move : ${MARK[m.mark].toLowerCase()} at ${m.cell} => sitcode: ${m.child} ${m.known ? WORD[m.value] : "undef"}`);
    return lines.join("\n");
  }

  function render() {
    const code = codeAt(at);
    const legal = moves(code);
    if (selected >= legal.length) selected = -1;
    renderStatus(code, legal);
    renderBoard(code, legal);
    renderMoves(code, legal);
    renderHistory();
    $("code").textContent = String(code);
    $("dump").textContent = atlasDump(code, legal);
    if ($("tree-here").checked) renderTree();
    const hash = "#" + line.slice(0, at).map(moveName).join(",");
    if (location.hash !== hash && !(hash === "#" && !location.hash)) history.replaceState(null, "", hash);
  }

  // ---- the strategy tree (seed 000's Figure 2, for the certified strategy) -------------------
  function mini(code) {
    const b = board(code), on = new Set(completeLines(b).flat());
    const el = h("span", { class: "mini", "aria-hidden": "true" });
    el.style.gridTemplateColumns = `repeat(${G.cols}, 13px)`;
    b.forEach((m, c) => el.append(h("span", { class: `m${m}${on.has(c) ? " hl" : ""}` }, m ? MARK[m] : "")));
    return el;
  }
  function goButton(path) {
    return h("button", { type: "button", class: "go", title: "show this position on the board",
      onclick: (e) => { e.preventDefault(); setLine(path); window.scrollTo({ top: 0, behavior: "smooth" }); } }, "show");
  }
  // a node is the position after `path`; the prover's move and then every opponent reply below it
  function treeNode(path, player, heading) {
    const code = path.reduce((c, m) => c + m.mark * POW3[m.cell], 0);
    const lab = label(code);
    if (!lab || lab.distance === 0) {
      const end = !lab ? "beyond the embedded horizon" : `game over: ${outcome(code)}`;
      return h("li", {}, h("div", { class: "leaf", "data-leaf": "true" }, ...heading, mini(code), h("span", { class: "who" }, end), goButton(path)));
    }
    const details = h("details", {});
    details.append(h("summary", {}, ...heading, mini(code), goButton(path)));
    details.addEventListener("toggle", () => {
      if (!details.open || details.dataset.built) return;
      details.dataset.built = "1";
      const ul = h("ul", {});
      if (toMove(code) === player) {
        const m = strategies[player].moves.get(code);
        if (!m) ul.append(h("li", {}, h("span", { class: "leaf" }, DATA.horizon === null
          ? `player ${player}'s strategy never reaches this position (it plays differently earlier)`
          : "no strategy entry embedded here (beyond the horizon, or off the strategy's path)")));
        else {
          const after = code + m.mark * POW3[m.cell], al = label(after);
          ul.append(treeNode(path.concat([m]), player, [h("span", { class: "who" }, `player ${player} plays`),
            moveSpan(m), al ? valueSpan(-al.value, al.distance + 1) : null]));
        }
      } else {
        for (const m of moves(code))
          ul.append(treeNode(path.concat([{ cell: m.cell, mark: m.mark }]), player,
            [h("span", { class: "who" }, "if the opponent plays"), moveSpan(m)]));
      }
      details.append(ul);
    });
    return h("li", {}, details);
  }
  function renderTree() {
    const player = strategyPlayer();
    const root = $("tree");
    root.replaceChildren();
    if (!player) { $("strategy-words").textContent = "This certificate holds no strategy."; return; }
    const s = strategies[player].info;
    $("strategy-words").textContent =
      `Player ${player} ${s.guarantees === "win" ? "wins" : "never loses"} by following this strategy: ` +
      `${num(s.total_entries)} positions where it moves, each with the one move it plays. Open a line to see the strategy's move ` +
      "and every reply of the opponent, down to the end of the game; “show” puts that position on the board." +
      (DATA.horizon !== null ? ` (Embedded: ${num(s.entries)} entries within ${DATA.horizon} plies.)` : "");
    const here = $("tree-here").checked ? line.slice(0, at) : [];
    const ul = h("ul", {});
    const top = treeNode(here, player, [h("span", { class: "who" }, here.length ? `after ${here.map(moveName).join(", ")}` : "start")]);
    ul.append(top);
    root.append(ul);
    const details = top.querySelector("details");
    if (details) details.open = true;
  }

  // ---- identity, header, keys ------------------------------------------------------------------
  function renderIdentity() {
    $("game-name").textContent = G.name;
    $("game-words").textContent = G.description;
    const claim = $("claim");
    const rv = DATA.claim.root_value;
    claim.append("Certified: with best play from the empty board, the first player's result is ",
      h("span", { class: `v ${rv}` }, rv), DATA.claim.root_margin !== null ? ` (line margin ${DATA.claim.root_margin})` : "", ".");
    const dl = $("identity");
    const row = (k, v) => dl.append(h("dt", {}, k), h("dd", {}, v));
    row("game", `${G.name}: ${G.description}`);
    row("rules sha256", h("span", { class: "mono" }, G.sha256));
    const v = DATA.verdict;
    row("checker", v === null ? "not run for this page (run: python -m checker CERTIFICATE.json)"
      : h("span", { class: v.startsWith("VALID") ? "verdict-ok" : "verdict-bad" }, v));
    row("source", DATA.source);
    row("states", DATA.horizon === null ? `${num(DATA.states_total)} reachable states, all embedded`
      : `${num(DATA.states_total)} reachable states; this page embeds the ${num(L.count)} within ${DATA.horizon} plies of the start`);
    row("written by", `${DATA.provenance.tool}: ${DATA.provenance.command}`);
    const sel = $("strategy-player");
    for (const s of DATA.strategies)
      sel.append(h("option", { value: String(s.player) }, `player ${s.player} (${s.guarantees === "win" ? "wins" : "never loses"})`));
    if (DATA.strategies.length < 2) $("strategy-choice").hidden = true;
    sel.addEventListener("change", () => { renderTree(); render(); });
    $("tree-here").addEventListener("change", renderTree);
  }

  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
    const legal = moves(codeAt(at));
    const keys = {
      ArrowLeft: () => go(at - 1), ArrowRight: () => go(at + 1), Home: () => go(0), End: () => go(line.length),
      ArrowDown: () => { if (legal.length) { selected = (selected + 1) % legal.length; render(); } },
      ArrowUp: () => { if (legal.length) { selected = (selected - 1 + legal.length) % legal.length; render(); } },
      Enter: () => { if (selected >= 0 && e.target === document.body) play(legal[selected]); else return false; },
    };
    if (keys[e.key] && keys[e.key]() !== false) e.preventDefault();
  });
  $("first").onclick = () => go(0);
  $("back").onclick = () => go(at - 1);
  $("forward").onclick = () => go(at + 1);
  $("last").onclick = () => go(line.length);

  function fromHash() {
    const tokens = decodeURIComponent(location.hash.slice(1)).split(",").filter(Boolean);
    const out = [];
    let code = 0;
    for (const t of tokens) {
      const m = /^([XO])(\d+)$/i.exec(t.trim());
      const mv = m && { mark: m[1].toUpperCase() === "X" ? 1 : 2, cell: Number(m[2]) };
      if (!mv || !moves(code).some((x) => x.cell === mv.cell && x.mark === mv.mark)) break;
      out.push(mv);
      code += mv.mark * POW3[mv.cell];
    }
    return out;
  }

  renderIdentity();
  renderTree();
  setLine(fromHash());
  document.body.dataset.ready = "true";
})().catch((err) => {
  document.body.dataset.ready = "error";
  const p = document.getElementById("status");
  p.textContent = `This page could not read its data: ${err}. It needs a browser with DecompressionStream (2023 or later).`;
});
