"use strict";
// The certify explorer. A "model" reads the embedded certificate (a label table, or a proved
// strategy) and answers the same questions for either: what is on the board, which moves there
// are and what each is worth, which move the certified strategy plays. The page draws only what a
// model says. Every string from the certificate reaches the page through textContent, never markup.
(async function () {
  const DATA = JSON.parse(document.getElementById("certify-data").textContent);
  const MARK = ["", "X", "O"];
  const WORD = { 1: "win", 0: "draw", "-1": "loss" };
  const $ = (id) => document.getElementById(id);
  const num = (n) => n.toLocaleString("en-US");
  const plies = (n) => (n === 1 ? "1 ply" : `${n} plies`);

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

  const winnerText = (result) => (result === 0 ? "a draw" : `player ${result > 0 ? 1 : 2} wins`);

  // ---- model of a table certificate: every reachable state labelled ----------------------------
  async function tableModel() {
    const G = DATA.game, CELLS = G.rows * G.cols;
    const POW3 = Array.from({ length: CELLS }, (_, i) => 3 ** i);
    const L = DATA.labels;
    const codes = await unpack(L.codes, Uint32Array), values = await unpack(L.values, Int8Array);
    const distances = await unpack(L.distances, Uint8Array);
    const margins = L.margins ? await unpack(L.margins, Int8Array) : null;
    const strategies = {};
    for (const s of DATA.strategies) {
      const sc = await unpack(s.codes, Uint32Array), cells = await unpack(s.cells, Uint8Array), marks = await unpack(s.marks, Uint8Array);
      const map = new Map();
      sc.forEach((c, i) => map.set(c, { cell: cells[i], mark: marks[i] }));
      strategies[s.player] = { info: s, moves: map };
    }
    const board = (code) => POW3.map((p) => Math.floor(code / p) % 3);
    const toMove = (code) => 1 + (board(code).filter((m) => m).length % 2);
    const marksFor = (p) => (G.marks === "either" ? [1, 2] : G.marks === "x-only" ? [1] : [p]);
    function label(code) {
      let lo = 0, hi = codes.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (codes[mid] === code) return { value: values[mid], distance: distances[mid], margin: margins ? margins[mid] : null };
        if (codes[mid] < code) lo = mid + 1; else hi = mid - 1;
      }
      return null; // beyond the embedded horizon
    }
    const cmp = (a, b) => a.reduce((r, x, i) => r || (x > b[i] ? 1 : x < b[i] ? -1 : 0), 0);
    const marginText = (m) => (m === null ? "" : `, ${m > 0 ? "+" : ""}${m} line${Math.abs(m) === 1 ? "" : "s"}`);
    const resultText = (v, n, m) => (v === 0 ? "draw" : `${WORD[v]} in ${plies(n)}${marginText(m)}`);
    function moves(code) {
      const lab = label(code);
      if (!lab || lab.distance === 0) return [];
      const b = board(code), p = toMove(code), list = [];
      const chosen = strategies[p] && strategies[p].moves.get(code);
      for (let cell = 0; cell < CELLS; cell++) {
        if (b[cell]) continue;
        for (const mark of marksFor(p)) {
          const child = code + mark * POW3[cell], cl = label(child);
          const v = cl ? -cl.value : null, n = cl ? cl.distance + 1 : null, m = cl && cl.margin !== null ? -cl.margin : null;
          list.push({ name: MARK[mark] + cell, cell, mark, child, known: !!cl, cls: cl ? WORD[v] : "",
            text: cl ? resultText(v, n, m) : "not embedded", plies: cl ? String(n) : "",
            short: cl ? (v > 0 ? `W${n}` : v < 0 ? `L${n}` : "D") : "?",
            chosen: !!chosen && chosen.cell === cell && chosen.mark === mark,
            key: cl ? [v, m || 0, v > 0 ? -n : v < 0 ? n : 0] : null });
        }
      }
      const known = list.filter((x) => x.known);
      if (known.length) {
        const top = known.map((x) => x.key).reduce((a, b) => (cmp(a, b) >= 0 ? a : b));
        for (const x of known) x.best = cmp(x.key, top) === 0;
      }
      return list;
    }
    function view(code) {
      const lab = label(code), b = board(code), p = toMove(code), list = moves(code);
      const done = G.lines.filter((line) => b[line[0]] && line.every((c) => b[c] === b[line[0]]));
      let status;
      if (!lab) status = `Beyond the embedded horizon (${DATA.horizon} plies): rerun certify explore with a larger --plies to see this position.`;
      else if (lab.distance === 0) status = `Game over: ${winnerText(lab.value === 0 ? 0 : (lab.value > 0) === (p === 1) ? 1 : -1)}.`;
      else status = `Player ${p} to move (${marksFor(p).map((m) => MARK[m]).join(" or ")}): ` +
        `${lab.value === 0 ? "a draw" : (lab.value > 0 ? "wins" : "loses") + " in " + plies(lab.distance)} with best play.`;
      // seed 000's dump: the code, the playfield, then "* move : x at 1 => sitcode: 9374 win"
      const rows = [];
      for (let r = 0; r < G.rows; r++)
        rows.push(b.slice(r * G.cols, (r + 1) * G.cols).map((m) => ` ${m ? MARK[m].toLowerCase() : " "} `).join("|"));
      const dump = [`code: ${code}`, rows.join(`\n${Array(G.cols).fill("---").join("+")}\n`)]
        .concat(list.map((m) => `* move : ${MARK[m.mark].toLowerCase()} at ${m.cell} => sitcode: ${m.child} ${m.known ? m.cls : "undef"}`));
      return { cells: b, moves: list, known: !!lab, over: !!lab && lab.distance === 0, status, toMove: p,
        lineCells: new Set(lab && lab.distance === 0 ? done.flat() : []), code: String(code), dump: dump.join("\n"), note: "" };
    }
    const players = DATA.strategies.map((s) => s.player);
    return {
      rows: G.rows, cols: G.cols, blocks: 0, start: 0, view, players,
      hint: (G.marks === "either" ? "Click the X or O half of an empty cell to play that mark there." : "Click an empty cell to play there.") +
        " W5 = win in 5 plies, L4 = loss in 4, D = draw (for the player moving).",
      guarantees: (p) => strategies[p].info.guarantees,
      strategyWords(p) {
        const s = strategies[p].info;
        return `Player ${p} ${s.guarantees === "win" ? "wins" : "never loses"} by following this strategy: ` +
          `${num(s.total_entries)} positions where it moves, each with the one move it plays.` +
          (DATA.horizon !== null ? ` (Embedded: ${num(s.entries)} entries within ${DATA.horizon} plies.)` : "");
      },
      offPath: (p) => (DATA.horizon === null ? `player ${p}'s strategy never reaches this position (it plays differently earlier)`
        : "no strategy entry embedded here (beyond the horizon, or off the strategy's path)"),
      chosen: (code, p) => { const m = strategies[p] && strategies[p].moves.get(code); return m ? moves(code).find((x) => x.cell === m.cell && x.mark === m.mark) : null; },
    };
  }

  // ---- model of a strategy certificate: the proof, one move at the prover's turns -------------
  // 0 open, 1 won by X, 2 won by O, 3 full without a line (drawn): each local board of a 9×9 grid,
  // as the command line shades them (certify/render/uttt.py: board_status)
  function blockStatus(cells, cols, b) {
    const lines = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
    const out = [];
    for (let block = 0; block < (cols / b) * (cols / b); block++) {
      const top = Math.floor(block / (cols / b)) * b, left = (block % (cols / b)) * b;
      const local = [];
      for (let r = 0; r < b; r++) for (let c = 0; c < b; c++) local.push(cells[(top + r) * cols + left + c]);
      const won = [1, 2].find((mark) => lines.some((line) => line.every((i) => local[i] === mark)));
      out.push(won || (local.every((mark) => mark > 0) ? 3 : 0));
    }
    return out;
  }
  async function proofModel() {
    const P = DATA.proof;
    const inflated = new Blob([await unpack(P.nodes, Uint8Array)]);
    const nodes = JSON.parse(await inflated.text());
    const first = nodes[0].p.split(" ")[0].split("/");
    const rows = first.length, cols = first[0].length;
    const blocks = rows === 9 && cols === 9 ? 3 : 0; // a 9×9 grid is Ultimate tic-tac-toe's 3×3 boards
    const wins = P.guarantees === "win";
    const word = (prover) => (prover ? (wins ? "win" : "draw") : (wins ? "loss" : "draw"));
    const said = (prover) => (prover ? (wins ? "win (proved)" : "no loss (proved)") : (wins ? "loss (proved)" : "no win (proved)"));
    function view(id) {
      const node = nodes[id];
      const [grid, ...rest] = node.p.split(" ");
      const cells = grid.replace(/\//g, "").split("").map((c) => ".XO".indexOf(c));
      const prover = node.m === P.prover;
      const list = node.c.map(([name, child, cell, mark]) => ({ name, cell, mark: ".XO".indexOf(mark), child, known: child >= 0,
        cls: child < 0 ? "" : word(prover), text: child < 0 ? "not embedded" : said(prover),
        short: child < 0 ? "?" : word(prover)[0].toUpperCase(), plies: "", chosen: prover, best: false }));
      const extra = rest.join(" ");
      const sent = blocks && /^\d$/.test(extra) ? Number(extra) : -1;
      const where = blocks ? (sent >= 0 ? `; must play in board ${sent}` : "; may play in any open board") : "";
      const status = node.r !== null ? `Game over: ${winnerText(node.r)}.`
        : `Player ${node.m} to move${where}${prover ? ": the proof gives its move." : ": the proof covers every reply."}`;
      return { cells, moves: list, known: true, over: node.r !== null, status, toMove: node.m, sentBlock: sent,
        blockStatus: blocks ? blockStatus(cells, cols, blocks) : null,
        lineCells: new Set(), code: null, dump: null,
        note: prover && node.r === null ? "The certificate proves this one move; other moves here are not part of the proof." : "" };
    }
    return {
      rows, cols, blocks, start: 0, view, players: [P.prover],
      hint: "Click a coloured cell, or a move in the table, to follow the proof. W = the mover wins, L = loses, D = does not lose / does not win.",
      guarantees: () => P.guarantees,
      strategyWords: (p) => `Player ${p} ${wins ? "wins" : "never loses"}: the certificate gives its move at each of its turns ` +
        `and the proof covers every reply of the opponent; ${num(P.positions)} positions` +
        (P.cut ? `, of which this page embeds the first ${num(P.count)}.` : "."),
      offPath: () => "not part of the proof",
      chosen: (id, p) => (nodes[id].m === p && nodes[id].c.length ? view(id).moves[0] : null),
    };
  }

  const model = DATA.kind === "strategy" ? await proofModel() : await tableModel();

  // ---- the line of play and where we are in it -------------------------------------------------
  let line = [];      // moves (as the model gives them) from the start
  let at = 0;         // how many of them are on the board
  let selected = -1;  // index of the highlighted move (keyboard)
  const stateAt = (n) => (n === 0 ? model.start : line[n - 1].child);
  const strategyPlayer = () => Number($("strategy-player").value || 0);
  const moveSpan = (m) => {
    const parts = /^([XO])(\d+)$/.exec(m.name);
    return h("span", { class: "mv" }, parts ? h("span", { class: `mk${m.mark}` }, parts[1]) : null, parts ? parts[2] : h("span", { class: `mk${m.mark}` }, m.name));
  };
  function play(move) { if (move.child < 0) return; line = line.slice(0, at).concat([move]); at = line.length; selected = -1; render(); }
  function go(n) { at = Math.max(0, Math.min(line.length, n)); selected = -1; render(); }
  function setLine(moves) { line = moves.slice(); at = line.length; selected = -1; render(); }
  const valueSpan = (m) => h("span", { class: `v ${m.cls}` }, m.text);

  // ---- drawing ---------------------------------------------------------------------------------
  function renderBoard(v) {
    const el = $("board");
    el.replaceChildren();
    el.style.gridTemplateColumns = `repeat(${model.cols}, minmax(0, 1fr))`; // equal columns, whatever a cell holds
    el.classList.toggle("big", model.cols > 5);
    const last = at > 0 ? line[at - 1].cell : -1;
    v.cells.forEach((mark, cell) => {
      const cls = ["cell"];
      if (v.lineCells.has(cell)) cls.push("line");
      if (cell === last) cls.push("last");
      if (model.blocks) {
        const r = Math.floor(cell / model.cols), c = cell % model.cols, b = model.blocks;
        if (c % b === b - 1 && c < model.cols - 1) cls.push("block-right");
        if (r % b === b - 1 && r < model.rows - 1) cls.push("block-bottom");
        if (v.sentBlock >= 0 && Math.floor(r / b) * b + Math.floor(c / b) === v.sentBlock) cls.push("sent");
        const status = v.blockStatus ? v.blockStatus[Math.floor(r / b) * (model.cols / b) + Math.floor(c / b)] : 0;
        if (status) cls.push(`won${status}`);
      }
      if (mark > 0) {
        el.append(h("div", { class: `${cls.join(" ")} filled m${mark}`, role: "img", "aria-label": `cell ${cell}: ${MARK[mark]}` },
          model.cols > 5 ? null : h("span", { class: "num" }, String(cell)), MARK[mark]));
        return;
      }
      const here = v.moves.filter((m) => m.cell === cell);
      const div = h("div", { class: cls.join(" "), role: "group", "aria-label": `cell ${cell}: empty` },
        model.cols > 5 ? null : h("span", { class: "num" }, String(cell)));
      for (const m of here) {
        const i = v.moves.indexOf(m);
        const words = `play ${m.name}: ${m.text}${m.best ? ", best" : ""}${m.chosen ? ", the strategy's move" : ""}`;
        div.append(h("button", { type: "button", "data-move": m.name, title: words, "aria-label": words,
          class: `half m${m.mark} ${m.cls ? m.cls + "-bg" : ""}${m.chosen ? " strategy" : ""}${i === selected ? " selected" : ""}`,
          onclick: () => play(m) },
        here.length > 1 || DATA.game.marks !== "own" ? h("span", { class: "mk" }, MARK[m.mark]) : null,
        model.cols > 5 ? null : h("span", {}, m.short), m.best && model.cols <= 5 ? "★" : null));
      }
      el.append(div);
    });
  }

  function renderMoves(v) {
    const body = $("moves").tBodies[0];
    body.replaceChildren();
    v.moves.forEach((m, i) => {
      body.append(h("tr", { class: `move${i === selected ? " selected" : ""}${m.chosen ? " strategy" : ""}`,
        "data-move": m.name, "data-value": m.known ? m.cls : "unknown", "data-plies": m.plies, onclick: () => play(m) },
      h("td", {}, h("button", { type: "button", "aria-label": `play ${m.name}` }, moveSpan(m))),
      h("td", {}, h("span", {}, valueSpan(m))),
      h("td", {}, h("span", {}, m.plies)),
      h("td", {}, h("span", {}, m.best ? h("span", { class: "best", title: "best move" }, "★ best ") : null,
        m.chosen ? h("span", { class: "strat-mark", title: "the certified strategy plays this" }, "◆ strategy") : null))));
    });
    const empty = !v.known ? "Not embedded." : v.over ? "No legal moves: the game is over." : "";
    if (!v.moves.length || v.note) body.append(h("tr", {}, h("td", { colspan: "4" }, h("span", { class: "note" }, v.moves.length ? v.note : empty))));
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

  function render() {
    const v = model.view(stateAt(at));
    if (selected >= v.moves.length) selected = -1;
    $("status").textContent = v.status;
    $("hint").textContent = v.moves.length ? model.hint : "";
    renderBoard(v);
    renderMoves(v);
    renderHistory();
    $("atlas").hidden = v.code === null;
    if (v.code !== null) { $("code").textContent = v.code; $("dump").textContent = v.dump; }
    if ($("tree-here").checked) renderTree();
    const hash = "#" + line.slice(0, at).map((m) => m.name).join(",");
    if (location.hash !== hash && !(hash === "#" && !location.hash)) history.replaceState(null, "", hash);
  }

  // ---- the strategy tree (seed 000's Figure 2, for the certified strategy) -------------------
  function mini(v) {
    const el = h("span", { class: "mini", "aria-hidden": "true" });
    el.style.gridTemplateColumns = `repeat(${model.cols}, ${model.cols > 5 ? 7 : 13}px)`;
    if (model.cols > 5) el.classList.add("small");
    v.cells.forEach((m, c) => el.append(h("span", { class: `m${m}${v.lineCells.has(c) ? " hl" : ""}` }, m > 0 ? MARK[m] : "")));
    return el;
  }
  function goButton(path) {
    return h("button", { type: "button", class: "go", title: "show this position on the board",
      onclick: (e) => { e.preventDefault(); setLine(path); window.scrollTo({ top: 0, behavior: "smooth" }); } }, "show");
  }
  // a node is the position after `path`: the prover's move, then every opponent reply, below it
  function treeNode(path, player, heading) {
    const state = path.length ? path[path.length - 1].child : model.start;
    const v = model.view(state);
    if (!v.known || v.over) {
      const end = !v.known ? "beyond the embedded horizon" : `game over: ${v.status.replace(/^Game over: |\.$/g, "")}`;
      return h("li", {}, h("div", { class: "leaf", "data-leaf": "true" }, ...heading, mini(v), h("span", { class: "who" }, end), goButton(path)));
    }
    const details = h("details", {});
    details.append(h("summary", {}, ...heading, mini(v), goButton(path)));
    details.addEventListener("toggle", () => {
      if (!details.open || details.dataset.built) return;
      details.dataset.built = "1";
      const ul = h("ul", {});
      if (v.toMove === player) {
        const m = model.chosen(state, player);
        if (!m) ul.append(h("li", {}, h("span", { class: "leaf" }, model.offPath(player))));
        else ul.append(treeNode(path.concat([m]), player, [h("span", { class: "who" }, `player ${player} plays`), moveSpan(m), valueSpan(m)]));
      } else {
        for (const m of v.moves) ul.append(treeNode(path.concat([m]), player, [h("span", { class: "who" }, "if the opponent plays"), moveSpan(m)]));
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
    $("strategy-words").textContent = model.strategyWords(player) + " Open a line to see the strategy's move and every reply " +
      "of the opponent, down to the end of the game; “show” puts that position on the board.";
    const here = $("tree-here").checked ? line.slice(0, at) : [];
    const top = treeNode(here, player, [h("span", { class: "who" }, here.length ? `after ${here.map((m) => m.name).join(", ")}` : "start")]);
    root.append(h("ul", {}, top));
    const details = top.querySelector("details");
    if (details) details.open = true;
  }

  // ---- identity, header, keys ------------------------------------------------------------------
  function renderIdentity() {
    const G = DATA.game;
    $("game-name").textContent = G.name;
    $("game-words").textContent = G.description;
    const C = DATA.claim;
    const certified = DATA.verdict !== null && DATA.verdict.startsWith("VALID") ? "Certified" : "Claimed by the certificate";
    if (DATA.kind === "strategy") $("claim").append(`${certified}: from ${C.root === null ? "the start" : "the position shown first"}, player ${C.player} `,
      h("span", { class: `v ${C.result === "win" ? "win" : "draw"}` }, C.result === "win" ? "wins" : "does not lose"), " against every reply. ");
    else $("claim").append(`${certified}: with best play from the empty board, the first player's result is `,
      h("span", { class: `v ${C.root_value}` }, C.root_value), C.root_margin != null ? ` (line margin ${C.root_margin})` : "", ". ");
    $("claim").append(
      DATA.verdict === null ? "Independent checker: not run for this page."
        : h("span", { class: DATA.verdict.startsWith("VALID") ? "verdict-ok" : "verdict-bad" },
          `Independent checker: ${DATA.verdict.split(" ")[0]}.`));
    if (DATA.kind === "strategy") {
      $("moves-title").textContent = "Moves in the proof";
      $("legend-best").hidden = true; // a proof marks no best moves: ★ belongs to table pages
      if (model.blocks) $("legend-boards").hidden = false;
      $("moves").classList.add("no-plies"); // a proof certifies results, not distances
    }
    const dl = $("identity");
    const row = (k, v) => dl.append(h("dt", {}, k), h("dd", {}, v));
    row("game", `${G.name}: ${G.description}`);
    row("rules sha256", h("span", { class: "mono" }, G.sha256));
    const verdict = DATA.verdict;
    row("checker", verdict === null ? "not run for this page (run: python -m checker CERTIFICATE.json)"
      : h("span", { class: verdict.startsWith("VALID") ? "verdict-ok" : "verdict-bad" }, verdict));
    row("source", DATA.source);
    if (DATA.kind === "strategy") row("proof", `${num(DATA.proof.positions)} positions` +
      (DATA.proof.cut ? `; this page embeds the first ${num(DATA.proof.count)} (breadth first)` : ", all embedded"));
    else row("states", DATA.horizon === null ? `${num(DATA.states_total)} reachable states, all embedded`
      : `${num(DATA.states_total)} reachable states; this page embeds the ${num(DATA.labels.count)} within ${DATA.horizon} plies of the start`);
    row("written by", `${DATA.provenance.tool}: ${DATA.provenance.command}`);
    const sel = $("strategy-player");
    for (const p of model.players)
      sel.append(h("option", { value: String(p) }, `player ${p} (${model.guarantees(p) === "win" ? "wins" : "never loses"})`));
    if (model.players.length < 2) $("strategy-choice").hidden = true;
    sel.addEventListener("change", () => { renderTree(); render(); });
    $("tree-here").addEventListener("change", renderTree);
  }

  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
    const moves = model.view(stateAt(at)).moves;
    const keys = {
      ArrowLeft: () => go(at - 1), ArrowRight: () => go(at + 1), Home: () => go(0), End: () => go(line.length),
      ArrowDown: () => { if (moves.length) { selected = (selected + 1) % moves.length; render(); } },
      ArrowUp: () => { if (moves.length) { selected = (selected - 1 + moves.length) % moves.length; render(); } },
      Enter: () => { if (selected >= 0 && e.target === document.body) play(moves[selected]); else return false; },
    };
    if (keys[e.key] && keys[e.key]() !== false) e.preventDefault();
  });
  $("first").onclick = () => go(0);
  $("back").onclick = () => go(at - 1);
  $("forward").onclick = () => go(at + 1);
  $("last").onclick = () => go(line.length);

  function fromHash() {
    const out = [];
    let state = model.start;
    for (const token of decodeURIComponent(location.hash.slice(1)).split(",").filter(Boolean)) {
      const m = model.view(state).moves.find((x) => x.name.toUpperCase() === token.trim().toUpperCase() && x.child >= 0);
      if (!m) break;
      out.push(m);
      state = m.child;
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
