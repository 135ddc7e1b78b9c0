(* The table kind. Trusted: reading the claim, and the calls of Core.labels_closed and Core.positional_closed
   that decide VALID (Table.labels_sound, Strategy.closed_wins / closed_no_loss). Untrusted: the scan
   that pairs the labels with the reachable states, the lookup that hands them to labels_closed
   (of which only its being a function is trusted: it reads [reach] and [label_at], which nothing
   writes after the scans), and the checks of distances and margins, which the theorem does not
   cover -- written as checker/table.py words them. *)

open Load
open Positional

(* Boards of at most 16 cells: a state is its code, sum(mark * 3^cell), and every child's code is
   larger than its parent's, so scanning codes upwards meets parents first (checker/table.py). *)

let max_cells = 16
let signed byte = if byte > 127 then byte - 256 else byte

let board_of_code cells code : Core.board =
  let rec go i c = if i = cells then [] else
      (match c mod 3 with 0 -> Core.Empty | 1 -> Core.Cross | _ -> Core.Nought) :: go (i + 1) (c / 3) in
  go 0 code

(* The code of a board of at most [max_cells] cells (Table.value_of only asks about boards of the
   table's size): the inverse of [board_of_code]. *)
let code_of_board powers (board : Core.board) =
  let rec go i = function
    | [] -> 0
    | m :: rest -> (match m with Core.Empty -> 0 | Core.Cross -> powers.(i) | Core.Nought -> 2 * powers.(i)) + go (i + 1) rest in
  go 0 board

let state r code = Printf.sprintf "state %d (%s)" code (draw_board r (board_of_code (r.rows * r.cols) code))

let marks_of r player = match r.marks with
  | "either" -> [1; 2] | "x-only" -> [1] | _ -> [player]

(* The child codes of a non-terminal state, in the canonical order. *)
let child_codes r powers code mover =
  List.concat (List.init (r.rows * r.cols) (fun cell ->
      if code / powers.(cell) mod 3 <> 0 then []
      else List.map (fun m -> code + m * powers.(cell)) (marks_of r mover)))

let count_lines r board mark =
  let cells = Array.of_list board in
  List.length (List.filter (fun l -> List.for_all (fun c -> cells.(c) = mark) l) r.lines)

let check limits r doc : string =
  let cells = r.rows * r.cols in
  if cells > max_cells then error "the table kind covers boards of at most %d cells, not %d" max_cells cells;
  let powers = Array.init (cells + 1) (fun i -> int_of_float (3. ** float_of_int i)) in
  let size = powers.(cells) in
  let claim = obj "certificate" "claim" doc in
  let first_moves = match member "claim" "first_moves" claim with
    | Arr l -> List.filteri (fun i _ -> i <= 2 * cells) l
    | v -> error "claim.first_moves must be array, found %s" (type_name v) in
  let first_moves = List.mapi (fun i m ->
      let where = Printf.sprintf "claim.first_moves[%d]" i in
      match m with
      | Obj _ -> (any_int where "cell" m, any_int where "mark" m, str where "value" m)
      | _ -> error "%s must be an object" where) first_moves in
  let table = obj "certificate" "table" doc in
  let states = int_in "table" "states" 1 size table in
  let work = (states + 2 * powers.(cells - cells / 2)) * List.length r.lines in
  if states > limits.max_states || work > limits.max_work then
    error "table.states = %s and states x lines = %s: over the work budget (%s states, %s states x lines); to check a large game, raise it: --max-states %d --max-work %d"
      (grouped states) (grouped work) (grouped limits.max_states)
      (grouped limits.max_work) states work;
  let labels = Unpack.field "table" "labels" states table in
  let most_lines = r.goal = "most-lines" in
  let margins_given = match member "table" "margins" table with
    | Null -> false | Str _ -> true | v -> error "table.margins must be string or null, found %s" (type_name v) in
  if margins_given <> most_lines then
    invalid "table.margins must be %s for goal %s" (if most_lines then "present" else "null") r.goal;
  let margins = if most_lines then Unpack.field "table" "margins" states table else "" in
  let strategies = match member "certificate" "strategies" doc with
    | Arr l -> List.filteri (fun i _ -> i < 3) l
    | v -> error "certificate.strategies must be array, found %s" (type_name v) in
  let strategies = List.mapi (fun i s ->
      let where = Printf.sprintf "strategies[%d]" i in
      (match s with Obj _ -> () | _ -> error "%s must be an object" where);
      let entries = int_in where "entries" 0 states s in
      let player = int_in where "player" 1 2 s in
      let guarantees = word where "guarantees" ["win"; "no-loss"] s in
      (player, guarantees, Unpack.field where "moves" entries s)) strategies in
  let root_value = str "claim" "root_value" claim in
  let root_margin = match member "claim" "root_margin" claim with
    | Null -> None | Int _ | Big _ -> Some (any_int "claim" "root_margin" claim)
    | v -> error "claim.root_margin must be integer or null, found %s" (type_name v) in
  (* ranges *)
  String.iteri (fun i c -> let b = Char.code c in
                 if b >= 192 || b mod 64 > cells then
                   invalid "table.labels[%d] = %d is not a label (value -1..1, distance 0..%d)" i b cells) labels;
  let lines = List.length r.lines in
  String.iteri (fun i c -> if abs (signed (Char.code c)) > lines then
                   invalid "table.margins[%d] is outside -%d..%d" i lines lines) margins;
  List.iteri (fun i (player, _, moves) ->
      String.iteri (fun j c -> let b = Char.code c in
                     if not (List.mem (b / 16) (marks_of r player)) || b mod 16 >= cells then
                       invalid "strategies[%d].moves[%d] = %d is not a move of player %d" i j b player) moves) strategies;
  if not (List.mem root_value ["win"; "draw"; "loss"]) then
    invalid "claim.root_value %s is not win, draw or loss" (cut 40 (ascii_repr root_value));
  let found = List.sort compare (List.map (fun (p, g, _) -> (p, g)) strategies) in
  let expected = match root_value with "win" -> [(1, "win")] | "loss" -> [(2, "win")]
                                      | _ -> [(1, "no-loss"); (2, "no-loss")] in
  let pairs l = "[" ^ String.concat ", " (List.map (fun (p, g) -> Printf.sprintf "(%d, '%s')" p g) l) ^ "]" in
  if found <> expected then
    invalid "root value %s: strategies (player, guarantees) expected %s, found %s" root_value (pairs expected)
      (let s = pairs found in String.sub s 0 (min 120 (String.length s)));
  (* reach: ascending codes; terminal labels as they come *)
  let game = game_of r in
  let reach = Bytes.make size '\000' and label_at = Bytes.make size '\000' in
  let margin_at = Array.make (if most_lines then size else 0) 0 in
  Bytes.set reach 0 '\001';
  let rank = ref 0 and edges = ref 0 in
  let mover_of code = if List.length (List.filter (( <> ) Core.Empty) (board_of_code cells code)) mod 2 = 0 then 1 else 2 in
  for code = 0 to size - 1 do
    if Bytes.get reach code <> '\000' then begin
      if !rank = states then
        invalid "table.states is %d, but more states are reachable (first unlisted: %s)" states (state r code);
      let board = board_of_code cells code in
      let mover = mover_of code in
      let stored = Char.code labels.[!rank] in
      (match Core.result game board with
       | None ->
         if stored mod 64 = 0 then invalid "non-terminal %s: distance expected at least 1, found 0" (state r code);
         let children = child_codes r powers code mover in
         List.iter (fun c -> Bytes.set reach c '\001') children;
         edges := !edges + List.length children
       | Some outcome ->
         Bytes.set reach code '\002';
         let v = match outcome with Core.Drawn -> 0
                                  | Core.Won p -> if (p = Core.P1) = (mover = 1) then 1 else -1 in
         let want = 64 * (v + 1) in
         if stored <> want then
           invalid "terminal %s: %s" (state r code)
             (if want / 64 <> stored / 64 then Printf.sprintf "value expected %d, found %d" v (stored / 64 - 1)
              else Printf.sprintf "distance expected 0, found %d" (stored mod 64));
         Bytes.set label_at code (Char.chr want);
         if most_lines then begin
           let x = count_lines r board Core.Cross and o = count_lines r board Core.Nought in
           let margin = if mover = 1 then x - o else o - x in
           if signed (Char.code margins.[!rank]) <> margin then
             invalid "terminal %s: margin expected %d, found %d" (state r code) margin (signed (Char.code margins.[!rank]));
           margin_at.(code) <- margin
         end);
      incr rank;
      if !rank mod 1_000_000 = 0 then progress "states" !rank
    end
  done;
  if !rank <> states then invalid "table.states is %d, but %d states are reachable" states !rank;
  (* labels: descending codes, each non-terminal label the minimax of its children's *)
  let rank = ref states in
  for code = size - 1 downto 0 do
    if Bytes.get reach code <> '\000' then decr rank;
    if Bytes.get reach code = '\001' then begin
        let kids = List.map (fun c -> Char.code (Bytes.get label_at c)) (child_codes r powers code (mover_of code)) in
        let values = List.map (fun l -> l / 64 - 1) kids in
        let best = List.fold_left (fun a v -> max a (- v)) (-1) values in
        let dists wanted = List.filter_map (fun l -> if l / 64 - 1 = wanted then Some (l mod 64) else None) kids in
        let distance = match best with
          | 1 -> 1 + List.fold_left min max_int (dists (-1))
          | -1 -> 1 + List.fold_left max 0 (List.map (fun l -> l mod 64) kids)
          | _ -> 1 + List.fold_left max 0 (dists 0) in
        let want = 64 * (best + 1) + distance and stored = Char.code labels.[!rank] in
        if stored <> want then
          invalid "non-terminal %s: %s" (state r code)
            (if want / 64 <> stored / 64 then Printf.sprintf "value expected %d, found %d" best (stored / 64 - 1)
             else Printf.sprintf "distance expected %d, found %d" distance (stored mod 64));
        Bytes.set label_at code (Char.chr want);
        if most_lines then begin
          let margin = List.fold_left (fun a c -> max a (- margin_at.(c))) min_int
              (child_codes r powers code (mover_of code)) in
          if signed (Char.code margins.[!rank]) <> margin then
            invalid "non-terminal %s: margin expected %d, found %d" (state r code) margin (signed (Char.code margins.[!rank]));
          margin_at.(code) <- margin
        end
      end
  done;
  (* the verified check: every label's value is the minimax of its children's (Table.labels_sound) *)
  let value_of_label l = match l / 64 with 0 -> Core.Loss | 1 -> Core.Draw | _ -> Core.Win in
  (* Table.label_map's lookup: a board's label by its state code, none if unreachable. labels_closed
     asks it about every board of the size (3^cells) and every child, hence the progress. *)
  let looked_up = ref 0 in
  let lookup board =
    incr looked_up;
    if !looked_up land 0xfffff = 0 then progress "boards looked up" !looked_up;
    let code = code_of_board powers board in
    if Bytes.get reach code = '\000' then None
    else Some (value_of_label (Char.code (Bytes.get label_at code))) in
  let map = { Core.cells = nat_of_int cells; Core.lookup = lookup } in
  if not (Core.labels_closed game map) then invalid "the verified minimax check refuses the labels";
  let proved code = match Core.value_of map (board_of_code cells code) with
    | Some Core.Win -> 1 | Some Core.Draw -> 0 | Some Core.Loss -> -1
    | None -> invalid "%s has no label" (state r code) in
  (* the claim, from the proved values *)
  let root = value_word (proved 0) in
  if root_value <> root then invalid "claim.root_value expected '%s', found %s" root (cut 40 (ascii_repr root_value));
  let margin = if most_lines then Some (string_of_int (signed (Char.code margins.[0]))) else None in
  let show = function None -> "None" | Some m -> m in
  if root_margin <> margin then invalid "claim.root_margin expected %s, found %s" (show margin) (show root_margin);
  let expected = List.concat (List.init cells (fun cell ->
      List.map (fun m -> (string_of_int cell, string_of_int m, value_word (- proved (m * powers.(cell)))))
        (marks_of r 1))) in
  let triple (c, m, v) = Printf.sprintf "(%s, %s, %s)" c m (ascii_repr v) in
  let rec compare_moves i = function
    | [], [] -> ()
    | w :: ws, g :: gs when w = g -> compare_moves (i + 1) (ws, gs)
    | ws, gs ->
      let one = function [] -> "no entry" | t :: _ -> triple t in
      let got = match gs with [] -> "'no entry'" | t :: _ -> triple t in (* Python's ascii() of either *)
      invalid "claim.first_moves[%d] (cell, mark, value) expected %s, found %s" i (one ws)
        (cut 80 got) in
  compare_moves 0 (expected, first_moves);
  (* the strategies: the verified closure check on the positions each reaches *)
  List.iteri (fun index (player, guarantees, moves) ->
      let where = Printf.sprintf "strategies[%d] (player %d, %s)" index player guarantees in
      let worst = if guarantees = "win" then 1 else 0 in
      let seen = Bytes.make size '\000' in
      Bytes.set seen 0 '\001';
      let used = ref 0 and set = Packed.create cells in
      for code = 0 to size - 1 do
        if Bytes.get seen code <> '\000' then begin
          let mover = mover_of code and board = board_of_code cells code in
          let choice = ref 0 in
          if Bytes.get reach code = '\002' then begin
            let v = Char.code (Bytes.get label_at code) / 64 - 1 in
            let result = if mover = player then v else - v in
            if result < worst then
              invalid "%s: play reaches terminal %s, a %s for player %d" where (state r code) (value_word result) player
          end else if mover = player then begin
            if !used = String.length moves then
              invalid "%s: no move for reachable %s (%d moves listed)" where (state r code) !used;
            let b = Char.code moves.[!used] in
            let mark = b / 16 and cell = b mod 16 in
            if code / powers.(cell) mod 3 <> 0 then
              invalid "%s: moves[%d] plays on the occupied cell %d in %s" where !used cell (state r code);
            let child = code + mark * powers.(cell) in
            Bytes.set seen child '\001';
            let rec index_of i = function
              | [] -> 0 | c :: rest -> if c = child then i else index_of (i + 1) rest in
            choice := index_of 0 (child_codes r powers code mover);
            incr used
          end else
            List.iter (fun c -> Bytes.set seen c '\001') (child_codes r powers code mover);
          ignore (Packed.add set board !choice)
        end
      done;
      if !used <> String.length moves then
        invalid "%s: %d moves listed, but the strategy reaches only %d turns of player %d" where
          (String.length moves) !used player;
      if not (Core.positional_closed game (fun _ -> None) [] (if player = 1 then Core.P1 else Core.P2) (guarantees = "no-loss")
                (Packed.tree set cells (fun n -> Some Packed.small.(Packed.choice set n)), Core.Tip) (empty_board r)) then
        invalid "%s: the verified closure check refuses the strategy" where) strategies;
  let margin_text = match root_margin with None -> "" | Some m -> " margin " ^ m in
  Printf.sprintf "%s, %s, root %s%s, %s checked" (counted states "state" "states") (counted !edges "edge" "edges")
    root_value margin_text (counted (List.length strategies) "strategy" "strategies")
