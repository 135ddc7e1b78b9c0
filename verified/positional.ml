(* The positional rules, the claim's root and the words of a verdict (trusted: they say what is
   proved) -- as checker/positional.py; the rules become Core's game, a position Core's board. *)

open Load

let mark_rules = ["own"; "either"; "x-only"]
let goals = ["first-line-wins"; "first-line-loses"; "most-lines"]
let rules_keys = ["cols"; "family"; "goal"; "lines"; "marks"; "name"; "rows"]
let max_cells = 256 (* a board of any shape up to 256 cells, as checker/positional.py MAX_CELLS *)

type rules = { rows : int; cols : int; lines : int list list; marks : string; goal : string }

let rec nat_of_int n = if n <= 0 then Core.O else Core.S (nat_of_int (n - 1))

let parse_rules (raw : json) : rules =
  let keys = match raw with Obj f -> List.sort compare (List.map fst f) | _ -> [] in
  if keys <> rules_keys then error "rules must have exactly the keys %s" (String.concat ", " rules_keys);
  let rows = int_in "rules" "rows" 1 max_cells raw and cols = int_in "rules" "cols" 1 max_cells raw in
  if rows * cols > max_cells then error "rules: board %dx%d is not 1 to %d cells" rows cols max_cells;
  let marks = word "rules" "marks" mark_rules raw and goal = word "rules" "goal" goals raw in
  if goal = "most-lines" && marks <> "own" then
    error "rules: goal most-lines needs marks 'own' (a line must belong to a player)";
  let lines = match member "rules" "lines" raw with
    | Arr [] -> error "rules.lines is empty"
    | Arr lines -> lines
    | v -> error "rules.lines must be array, found %s" (type_name v) in
  let line index = function
    | Arr (_ :: _ as cells) ->
      List.map (function
          | Int c when 0 <= c && c < rows * cols -> c
          | Int _ -> error "rules.lines[%d] has a cell outside 0..%d" index (rows * cols - 1)
          | _ -> error "rules.lines[%d] must be a non-empty array of integers" index) cells
    | _ -> error "rules.lines[%d] must be a non-empty array of integers" index in
  let lines = List.mapi line lines in
  let rec ascending = function a :: (b :: _ as rest) -> a < b && ascending rest | _ -> true in
  List.iteri (fun i l ->
      if not (ascending l) then error "rules.lines[%d] is not strictly ascending (rules must be canonical)" i;
      if i > 0 && compare (List.nth lines (i - 1)) l >= 0 then
        error "rules.lines[%d] does not follow rules.lines[%d] in sorted order without repeats (rules must be canonical)" i (i - 1))
    lines;
  { rows; cols; lines; marks; goal }

(* The canonical JSON of the rules without their name (docs/certificate-format.md, Identity). *)
let canonical (r : rules) : string =
  let ints l = "[" ^ String.concat "," (List.map string_of_int l) ^ "]" in
  Printf.sprintf {|{"cols":%d,"family":"positional","goal":"%s","lines":[%s],"marks":"%s","rows":%d}|}
    r.cols r.goal (String.concat "," (List.map ints r.lines)) r.marks r.rows

let game_of (r : rules) : Core.game =
  { Core.lines = List.map (List.map nat_of_int) r.lines;
    marks = (match r.marks with "own" -> Core.Own | "either" -> Core.Either | _ -> Core.XOnly);
    goal_of = (match r.goal with "first-line-wins" -> Core.FirstLineWins
                                 | "first-line-loses" -> Core.FirstLineLoses | _ -> Core.MostLines) }

let counted n one many =
  let s = string_of_int n in
  let len = String.length s in
  let b = Buffer.create (len + len / 3) in
  String.iteri (fun i c -> if i > 0 && (len - i) mod 3 = 0 then Buffer.add_char b ','; Buffer.add_char b c) s;
  Buffer.contents b ^ " " ^ (if n = 1 then one else many)

(* The decimal text of [a * b] (a, b >= 0), exact past max_int as Python's integers are: a budget's
   work, printed in the ERROR line that asks for it. *)
let product a b : string =
  if b = 0 || a <= max_int / b then string_of_int (a * b)
  else begin
    let digits n = Array.of_list (List.rev (List.init (String.length (string_of_int n))
                                             (fun i -> Char.code (string_of_int n).[i] - 48))) in
    let x = digits a and y = digits b in
    let z = Array.make (Array.length x + Array.length y) 0 in
    Array.iteri (fun i xi -> Array.iteri (fun j yj -> z.(i + j) <- z.(i + j) + xi * yj) y) x;
    for k = 0 to Array.length z - 2 do z.(k + 1) <- z.(k + 1) + z.(k) / 10; z.(k) <- z.(k) mod 10 done;
    let top = ref (Array.length z - 1) in
    while !top > 0 && z.(!top) = 0 do decr top done;
    String.init (!top + 1) (fun i -> Char.chr (48 + z.(!top - i)))
  end

let describe (r : rules) : string =
  let lengths = List.sort_uniq compare (List.map List.length r.lines) in
  let lo = List.hd lengths and hi = List.nth lengths (List.length lengths - 1) in
  let length = if lo = hi then string_of_int lo else Printf.sprintf "%d-%d" lo hi in
  Printf.sprintf "%dx%d board, %s of %s, marks %s, %s" r.rows r.cols
    (counted (List.length r.lines) "line" "lines") length r.marks r.goal

let empty_board (r : rules) : Core.board = List.init (r.rows * r.cols) (fun _ -> Core.Empty)

(* Why the complete lines of a board cannot arise in play (checker/positional.py, line_problem):
   under a first-line goal play stops at the first complete line, so every complete line holds the
   last move -- one shared cell, one mark, under own the previous mover's. *)
let line_problem (r : rules) (cells : Core.board) : string option =
  let a = Array.of_list cells in
  let complete = List.filter (fun l -> a.(List.hd l) <> Core.Empty && List.for_all (fun c -> a.(c) = a.(List.hd l)) l) r.lines in
  match complete with
  | [] -> None
  | _ when r.goal = "most-lines" -> None
  | first :: _ ->
    let mark = a.(List.hd first) in
    let filled = List.length (List.filter (( <> ) Core.Empty) cells) in
    if List.exists (fun l -> a.(List.hd l) <> mark) complete then
      Some "it holds a complete line of X and one of O, but play stops at the first"
    else if not (List.exists (fun c -> List.for_all (List.mem c) complete) first) then
      Some "its complete lines share no cell, so no single move completed them all"
    else if r.marks = "own" && mark = (if filled mod 2 = 0 then Core.Cross else Core.Nought) then
      Some "the side to move holds a complete line, but only the player who moved last can complete one"
    else None

(* A position: rows of X, O and '.' joined by '/', spaces ignored (checker/positional.py). *)
let parse_position (r : rules) (text : string) : Core.board =
  let shown = String.sub text 0 (min 120 (String.length text)) in
  let compact = String.concat "" (String.split_on_char ' ' text) in
  let rows = String.split_on_char '/' compact in
  if List.length rows <> r.rows
  || List.exists (fun row -> String.length row <> r.cols || String.exists (fun c -> not (String.contains ".XO" c)) row) rows
  then error "position %S is not %d rows of %d X, O or '.'" shown r.rows r.cols;
  let cells = List.concat_map (fun row -> List.init r.cols (fun i ->
      match row.[i] with 'X' -> Core.Cross | 'O' -> Core.Nought | _ -> Core.Empty)) rows in
  let count m = List.length (List.filter (( = ) m) cells) in
  if r.marks = "own" && not (List.mem (count Core.Cross - count Core.Nought) [0; 1]) then
    error "position %S: X must have as many marks as O or one more" shown;
  if r.marks = "x-only" && count Core.Nought > 0 then error "position %S: only X is placed in this game" shown;
  (match line_problem r cells with Some problem -> error "position %S: %s" shown problem | None -> ());
  cells

let draw_board (r : rules) (b : Core.board) : string =
  let marks = Array.of_list (List.map (function Core.Empty -> "." | Core.Cross -> "X" | Core.Nought -> "O") b) in
  String.concat " / " (List.init r.rows (fun row ->
      String.concat " " (List.init r.cols (fun col -> marks.(row * r.cols + col)))))

(* Python's ascii() of a UTF-8 string (of its first [points] code points): how the stdlib checker
   quotes a name or any other string from the file, so that nothing in it can break the line. *)
let ascii_repr ?(points = max_int) (s : string) : string =
  let rec points_of i acc k =
    if i >= String.length s || k = points then List.rev acc
    else match utf8_at ~surrogates:true s i with
      | Some (u, len) -> points_of (i + len) (u :: acc) (k + 1)
      | None -> points_of (i + 1) (0xFFFD :: acc) (k + 1) in
  let cps = points_of 0 [] 0 in
  let quote = if List.mem 39 cps && not (List.mem 34 cps) then '"' else '\'' in
  let b = Buffer.create (String.length s + 2) in
  Buffer.add_char b quote;
  List.iter (fun c ->
      if c = Char.code quote || c = 92 then (Buffer.add_char b '\\'; Buffer.add_char b (Char.chr c))
      else if c = 9 then Buffer.add_string b "\\t" else if c = 10 then Buffer.add_string b "\\n"
      else if c = 13 then Buffer.add_string b "\\r"
      else if c >= 32 && c < 127 then Buffer.add_char b (Char.chr c)
      else if c < 256 then Buffer.add_string b (Printf.sprintf "\\x%02x" c)
      else if c < 0x10000 then Buffer.add_string b (Printf.sprintf "\\u%04x" c)
      else Buffer.add_string b (Printf.sprintf "\\U%08x" c)) cps;
  Buffer.add_char b quote;
  Buffer.contents b

(* The name on the verdict line: ascii() of its first 80 code points. *)
let ascii_name (s : string) : string = ascii_repr ~points:80 s

(* The first n characters of an ASCII string, as Python's text[:n]. *)
let cut n s = String.sub s 0 (min n (String.length s))

let value_word = function 1 -> "win" | 0 -> "draw" | _ -> "loss"
