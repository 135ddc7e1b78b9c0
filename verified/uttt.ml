(* The Ultimate tic-tac-toe rules object, the claim's root and the words of a verdict (trusted: they
   say what is proved) -- as checker/uttt.py; the rules become Core's ruleset, a position Core's
   state (Uttt.v). Cell c of board b is cell 9b + c of the 81; boards and cells row-major. *)

open Load

let rules_keys = ["drawn_boards"; "family"; "name"; "no_moves_left"; "sent_to_closed"; "won_boards"]
let standard = ["closed"; "count-for-nobody"; "play-any-open-board"; "draw"]
let open_rules = ["playable"; "count-for-nobody"; "play-any-empty-cell"; "draw"]

let parse_rules (raw : json) : Core.ruleset =
  let fields = match raw with Obj f -> f | _ -> [] in
  let keys = List.sort compare (List.map fst fields) in
  if keys <> rules_keys || (match List.assoc_opt "name" fields with Some (Str _) -> false | _ -> true) then
    error "uttt rules must have exactly the keys %s, name a string" (String.concat ", " rules_keys);
  let values = List.map (fun k -> List.assoc k fields) ["won_boards"; "drawn_boards"; "sent_to_closed"; "no_moves_left"] in
  let is set = values = List.map (fun v -> Str v) set in
  if is standard then Core.Standard
  else if is open_rules then Core.OpenRules
  else error "uttt rules: only won_boards 'closed' with sent_to_closed 'play-any-open-board', or 'playable' with 'play-any-empty-cell', drawn_boards 'count-for-nobody', no_moves_left 'draw'"

let canonical (r : Core.ruleset) : string =
  let w, s = match r with Core.Standard -> ("closed", "play-any-open-board") | Core.OpenRules -> ("playable", "play-any-empty-cell") in
  Printf.sprintf {|{"drawn_boards":"count-for-nobody","family":"uttt","no_moves_left":"draw","sent_to_closed":"%s","won_boards":"%s"}|} s w

let describe = function
  | Core.OpenRules -> "ultimate tic-tac-toe, open rules (won boards stay playable and stay won by the first line, sent to a full board play any empty cell, drawn count for nobody)"
  | Core.Standard -> "ultimate tic-tac-toe (won and full boards closed, drawn count for nobody, sent to a closed board play anywhere)"

(* checker/uttt.py position_work *)
let position_work = 2 * 81 * 9

let rec nat_of_int n = if n <= 0 then Core.O else Core.S (nat_of_int (n - 1))
let rec int_of_nat = function Core.O -> 0 | Core.S n -> 1 + int_of_nat n

let lines = [(0, 1, 2); (3, 4, 5); (6, 7, 8); (0, 3, 6); (1, 4, 7); (2, 5, 8); (0, 4, 8); (2, 4, 6)]

(* The mark of the first complete line of nine marks, or Empty (Uttt.first_line). *)
let first_line (a : Core.mark array) : Core.mark =
  match List.find_opt (fun (x, y, z) -> a.(x) <> Core.Empty && a.(x) = a.(y) && a.(y) = a.(z)) lines with
  | Some (x, _, _) -> a.(x) | None -> Core.Empty

let has_line (a : Core.mark array) m = List.exists (fun (x, y, z) -> a.(x) = m && a.(y) = m && a.(z) = m) lines

let state_of (cells : Core.mark array) (sent : int) (owners : Core.mark array) : Core.state =
  { Core.grid = List.init 9 (fun b -> List.init 9 (fun c -> cells.(9 * b + c)));
    sent = (if sent < 0 then None else Some (nat_of_int sent)); owners = Array.to_list owners }

let initial () = state_of (Array.make 81 Core.Empty) (-1) (Array.make 9 Core.Empty)

(* Python's str.split(): runs of Unicode whitespace separate the fields. *)
let py_split (s : string) : string list =
  let space u = (u >= 9 && u <= 13) || (u >= 0x1c && u <= 0x20) || u = 0x85 || u = 0xa0 || u = 0x1680
                || (u >= 0x2000 && u <= 0x200a) || u = 0x2028 || u = 0x2029 || u = 0x202f || u = 0x205f || u = 0x3000 in
  let fields = ref [] and cur = Buffer.create 100 and i = ref 0 in
  let flush () = if Buffer.length cur > 0 then (fields := Buffer.contents cur :: !fields; Buffer.clear cur) in
  while !i < String.length s do
    let u, len = match utf8_at s !i with Some p -> p | None -> (0xFFFD, 1) in
    if space u then flush () else Buffer.add_string cur (String.sub s !i len);
    i := !i + len
  done;
  flush (); List.rev !fields

let mark_of_char = function 'X' -> Core.Cross | 'O' -> Core.Nought | _ -> Core.Empty

(* The 81 cells of the grid written in reading order, as cells 9b + c. *)
let cells_of (text : string) : Core.mark array =
  let cells = Array.make 81 Core.Empty in
  String.iteri (fun index ch ->
      let row = index / 9 and col = index mod 9 in
      cells.(9 * (row / 3 * 3 + col / 3) + row mod 3 * 3 + col mod 3) <- mark_of_char ch) text;
  cells

let local cells b = Array.sub cells (9 * b) 9
let count cells m = Array.fold_left (fun n x -> if x = m then n + 1 else n) 0 cells
let all_of s chars = String.for_all (fun c -> String.contains chars c) s
let board_word w = List.mem w ["0"; "1"; "2"; "3"; "4"; "5"; "6"; "7"; "8"; "*"]
let both_meta owners = List.for_all (fun m -> has_line owners m) [Core.Cross; Core.Nought]

(* A position as docs/uttt.md writes it: checker/uttt.py parse_position and open_position. *)
let parse_position (r : Core.ruleset) (text : string) : Core.state =
  let shown = Positional.cut 120 (Positional.ascii_repr text) in
  let parts = py_split text in
  let strip p = String.concat "" (String.split_on_char '/' p) in
  match r with
  | Core.Standard ->
    let cells_text = match parts with [p; _] -> strip p | _ -> "" in
    if String.length cells_text <> 81 || not (all_of cells_text "XO.") || not (board_word (List.nth parts 1)) then
      error "position %s is not 81 cells of X, O, '.' and a board 0-8 or '*'" shown;
    let cells = cells_of cells_text in
    let sent = match List.nth parts 1 with "*" -> -1 | w -> int_of_string w in
    for b = 0 to 8 do
      if has_line (local cells b) Core.Cross && has_line (local cells b) Core.Nought then
        error "position %s: board %d holds a line of X and one of O" shown b
    done;
    if not (List.mem (count cells Core.Cross - count cells Core.Nought) [0; 1]) then
      error "position %s: X must have as many marks as O or one more" shown;
    let owners = Array.init 9 (fun b -> first_line (local cells b)) in
    let closed b = owners.(b) <> Core.Empty || not (Array.mem Core.Empty (local cells b)) in
    if both_meta owners then error "position %s: both players hold a meta line" shown;
    if sent >= 0 && closed sent then error "position %s: board %d is closed, write '*'" shown sent;
    if sent >= 0 && not (Array.mem Core.Cross cells) then
      error "position %s: the first move may go anywhere, write '*'" shown;
    state_of cells sent owners
  | Core.OpenRules ->
    let cells_text = match parts with (p :: _) -> strip p | [] -> "" in
    if not (List.length parts = 2 || List.length parts = 3) || String.length cells_text <> 81
       || not (board_word (List.nth parts 1)) then
      error "position %s is not 81 cells, a board 0-8 or '*' and maybe 9 board winners" shown;
    if not (all_of cells_text "XO.") then error "position %s: a cell is not X, O or '.'" shown;
    let cells = cells_of cells_text in
    let named = match parts with [_; _; n] -> Some n | _ -> None in
    (match named with
     | Some n when String.length n <> 9 || not (all_of n "XO.") ->
       error "position %s: board winners are not 9 of X, O, '.'" shown
     | _ -> ());
    let owners = Array.init 9 (fun b ->
        let x = has_line (local cells b) Core.Cross and o = has_line (local cells b) Core.Nought in
        match named with
        | Some n when x && o && n.[b] <> '.' -> mark_of_char n.[b]
        | _ when x && o -> error "position %s: board %d holds lines of both marks; name its winner" shown b
        | _ -> if x then Core.Cross else if o then Core.Nought else Core.Empty) in
    (match named with
     | Some n when String.init 9 (fun b -> match owners.(b) with Core.Cross -> 'X' | Core.Nought -> 'O' | _ -> '.') <> n ->
       error "position %s: the board winners named do not fit the marks" shown
     | _ -> ());
    if not (List.mem (count cells Core.Cross - count cells Core.Nought) [0; 1]) then
      error "position %s: X must have as many marks as O or one more" shown;
    let sent = match List.nth parts 1 with "*" -> -1 | w -> int_of_string w in
    if sent >= 0 && not (Array.mem Core.Empty (local cells sent)) then
      error "position %s: board %d is full, write '*'" shown sent;
    if both_meta owners then error "position %s: both players hold a meta line" shown;
    if sent >= 0 && not (Array.mem Core.Cross cells) then
      error "position %s: the first move may go anywhere, write '*'" shown;
    state_of cells sent owners

let draw_board (r : Core.ruleset) (s : Core.state) : string =
  let cells = Array.of_list (List.concat s.Core.grid) in
  let ch m = match m with Core.Cross -> 'X' | Core.Nought -> 'O' | Core.Empty -> '.' in
  let rows = List.init 9 (fun row -> String.init 9 (fun col ->
      ch cells.(9 * (row / 3 * 3 + col / 3) + row mod 3 * 3 + col mod 3))) in
  let sent = match s.Core.sent with None -> "*" | Some n -> string_of_int (int_of_nat n) in
  let text = String.concat "/" rows ^ " " ^ sent in
  match r with
  | Core.OpenRules -> text ^ " " ^ String.init 9 (fun b -> ch (List.nth s.Core.owners b))
  | Core.Standard -> text

(* A count closure's first byte when it counts at the position itself (checker/uttt_count.py NO_MOVE),
   when it names a move and a record for each reply (DEEP), and how deep those nest (NEST). *)
let no_move = 255
let deep = 254
let nest = 3

(* checker/uttt_count.py record_length: the length of the record at [at] of [raw]; 0 when it runs
   past the end or nests deeper than [nest]. *)
let rec record_length (raw : string) (at : int) (nest : int) : int =
  let size = String.length raw in
  if at + 1 >= size then 0
  else if Char.code raw.[at] <> deep then 2
  else if nest = 0 || at + 2 >= size then 0
  else begin
    let stop = ref (at + 3) and k = ref (Char.code raw.[at + 2]) in
    while !k > 0 && !stop > 0 do
      let length = record_length raw !stop (nest - 1) in
      stop := (if length = 0 then 0 else !stop + length);
      decr k
    done;
    if !stop = 0 then 0 else !stop - at
  end

(* The record at [at] of [raw] (record_length said where it ends), as Count.record_ok takes it,
   and where it ends. Untrusted: Count.record_ok judges what it is given. *)
let rec record_at (raw : string) (at : int) : Core.count_record * int =
  let byte i = Char.code raw.[i] in
  if byte at <> deep then
    (Core.Two ((if byte at = no_move then None else Some Packed.small.(byte at)), Packed.small.(byte (at + 1))), at + 2)
  else begin
    let stop = ref (at + 3) in
    let records = List.init (byte (at + 2)) (fun _ -> let r, next = record_at raw !stop in stop := next; r) in
    (Core.Deep (Packed.small.(byte (at + 1)), Packed.small.(byte (at + 2)), records), !stop)
  end

(* checker/uttt_count.py check_count, with its failures word for word (untrusted: the proved check,
   Count.record_ok, judges the closure again inside the closure check), on the record at [at] of
   [raw] (its length known good). The counts are Count.needed. *)
let rec check_count (r : Core.ruleset) (s : Core.state) (player : int) (plies_left : int) (raw : string) (at : int) : unit =
  let prover = if player = 1 then Core.P1 else Core.P2 and opponent = 3 - player in
  let mv = Char.code raw.[at] and count = Char.code raw.[at + 1] in
  if Core.uttt_to_move s <> prover || Core.uttt_result r s <> None then
    invalid "a count closes only a position where player %d is to move and play goes on, not %s" player (draw_board r s);
  let empties st = int_of_nat (Core.uttt_empties st) in
  let half x = if x >= 0 then x / 2 else - ((1 - x) / 2) in (* Python's x // 2: a nested record's plies may be negative *)
  (* checker/uttt_count.py played: the move-th legal move, sending the opponent to a board *)
  let played mv =
    let children = Core.uttt_children r s in
    let n = List.length children in
    if mv >= n then invalid "a count closure plays move %d at %s, which has %d" mv (draw_board r s) n;
    let after = List.nth children mv in
    match Core.uttt_result r after, after.Core.sent with
    | None, Some j -> (after, j)
    | _ -> invalid "a count closure's move %d at %s sends player %d to no board" mv (draw_board r s) opponent in
  if mv = deep then begin
    let after, _ = played (Char.code raw.[at + 1]) in
    let replies = Core.uttt_children r after and k = Char.code raw.[at + 2] in
    if k <> List.length replies then
      invalid "a count closure answers %d replies at %s, which has %d" k (draw_board r after) (List.length replies);
    let next = ref (at + 3) in
    List.iter (fun reply ->
        (* checker/uttt_count.py check_at: a reply that ends play is refused before its record is read *)
        if Core.uttt_result r reply <> None then
          invalid "a count closes only a position where play goes on, not %s" (draw_board r reply);
        check_count r reply player (plies_left - 2) raw !next;
        next := !next + record_length raw !next nest) replies
  end else begin
  let needed, left =
    if mv = no_move then (int_of_nat (Core.uttt_needed prover s None), half (min plies_left (empties s)))
    else begin
      let after, j = played mv in
      (int_of_nat (Core.uttt_needed prover after (Some j)), half (min (plies_left - 1) (empties after) + 1) - 1)
    end in
  if count <> needed then
    invalid "a count closure says player %d needs %d marks at %s, but it needs %d (255: no meta line is left)"
      opponent count (draw_board r s) needed;
  if needed <= left then
    invalid "player %d needs %d marks for a meta line at %s and has %d moves left: the count does not close it"
      opponent needed (draw_board r s) left
  end
