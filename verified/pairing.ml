(* The pairing kind (positional family). Trusted: reading the claim, the root and the pairs, and
   the one call of Core.pairing_check that decides VALID (Pairing.pairing_check_sound: the pairing
   player does not lose). Untrusted: the scan before it, which reports the stdlib checker's first
   failure in its words (checker/pairing.py), so that the two checkers give the same line. *)

open Load
open Positional

let refused = [("either", "either player may place either mark, so Q may complete a line of P's mark");
               ("x-only", "both players place X, so P's own moves fill Q's lines");
               ("first-line-loses", "completing a line loses, so Q never completing one proves nothing for P")]

(* An integer as Python prints it, and whether it is one (a JSON bool is not). *)
let int_text = function Int i -> Some (string_of_int i) | Big t -> Some t | _ -> None

(* checker/pairing.py blocking: at [root] (play goes on), [first] is an empty cell with [player] to
   move, the pairs are disjoint empty cells, not [first], and every line without a mark of
   [player] (nor [first]) holds a pair; in the stdlib checker's words. Returns the first move and
   the pairs read, and how many lines hold a mark of [player] or [first]. *)
let blocking (r : rules) (root : Core.board) player (first : json option) (pairs : json list) =
  let cells = r.rows * r.cols and draw = draw_board r root in
  let opponent = 3 - player and prover = if player = 1 then Core.P1 else Core.P2 in
  let board = Array.of_list root in
  let first = match first with
    | None -> None
    | Some v ->
      let text = Option.get (int_text v) in
      if Core.to_move root <> prover then
        invalid "pairing.first_move = %s, but player %d is to move at %s" text opponent draw;
      (match v with
       | Int f when 0 <= f && f < cells && board.(f) = Core.Empty -> Some f
       | _ -> invalid "pairing.first_move = %s is not an empty cell of %s" text draw) in
  let partner = Array.make cells (-1) in
  let read = List.mapi (fun index pair ->
      let where = Printf.sprintf "pairing.pairs[%d]" index in
      let a, b = match pair with
        | Arr [x; y] when int_text x <> None && int_text y <> None -> (x, y)
        | _ -> error "%s must be an array of two integers" where in
      let shown = Printf.sprintf "[%s, %s]" (Option.get (int_text a)) (Option.get (int_text b)) in
      let cell v = match v with
        | Int c when 0 <= c && c < cells ->
          if partner.(c) <> -1 || Some c = first then
            invalid "%s = %s: cell %d is already %s" where shown c (if Some c <> first then "paired" else "the first move");
          if board.(c) <> Core.Empty then invalid "%s = %s: cell %d is not empty" where shown c;
          c
        | _ -> invalid "%s = %s: cell %s is not on the board (0..%d)" where shown (Option.get (int_text v)) (cells - 1) in
      let a = cell a in
      let b = cell b in
      if a = b then invalid "%s = %s pairs a cell with itself" where shown;
      partner.(a) <- b; partner.(b) <- a;
      (a, b)) pairs in
  let mark = if player = 1 then Core.Cross else Core.Nought in
  let taken c = Some c = first || board.(c) = mark in
  let blocked = ref 0 in
  List.iteri (fun index line ->
      if List.exists taken line then incr blocked
      else if not (List.exists (fun c -> partner.(c) >= 0 && List.mem partner.(c) line) line) then
        invalid "rules.lines[%d] = [%s] holds no pair at %s, and player %d could complete it" index
          (String.concat ", " (List.map string_of_int line)) draw opponent) r.lines;
  (first, read, !blocked)

let refuse_rules (r : rules) =
  match List.assoc_opt r.marks refused, List.assoc_opt r.goal refused with
  | Some why, _ | None, Some why -> invalid "a pairing proves nothing under these rules: %s" why
  | None, None -> ()

let check limits (r : rules) doc : string =
  let claim = obj "certificate" "claim" doc in
  let player = int_in "claim" "player" 1 2 claim in
  ignore (word "claim" "result" ["no-loss"] claim);
  let root_text = match member "claim" "root" claim with
    | Null -> None | Str s -> Some s | v -> error "claim.root must be string or null, found %s" (type_name v) in
  let pairing = obj "certificate" "pairing" doc in
  let first = match member "pairing" "first_move" pairing with
    | Null -> None | (Int _ | Big _) as v -> Some v
    | v -> error "pairing.first_move must be integer or null, found %s" (type_name v) in
  let pairs = match member "pairing" "pairs" pairing with
    | Arr l -> l | v -> error "pairing.pairs must be array, found %s" (type_name v) in
  let cells = r.rows * r.cols in
  let work = List.fold_left (fun n l -> n + List.length l) 0 r.lines + cells in
  if work > limits.max_work then
    error "the rules' lines hold %s cells: over the work budget (%s lines x cells); to check them, raise it: --max-work %d"
      (String.trim (counted work "" "")) (String.trim (counted limits.max_work "" "")) work;
  if List.length pairs > cells / 2 then
    error "pairing.pairs has %d pairs, more than %d cells can hold" (List.length pairs) cells;
  refuse_rules r;
  let root = match root_text with None -> empty_board r | Some t -> parse_position r t in
  let game = game_of r in
  let draw = draw_board r root in
  if Core.result game root <> None then invalid "the root %s is a finished game" draw;
  ignore cells;
  let prover = if player = 1 then Core.P1 else Core.P2 in
  let first, read, blocked = blocking r root player first pairs in
  (* The one verdict that matters: Pairing.pairing_check_sound proves the claim from it. *)
  let nat_pairs = List.map (fun (a, b) -> (Positional.nat_of_int a, Positional.nat_of_int b)) read in
  if not (Core.pairing_check game prover (Option.map Positional.nat_of_int first) nat_pairs root) then
    invalid "the proved pairing check refuses the pairing";
  let where = match root_text with None -> "the start" | Some _ -> "position " ^ draw in
  let opening = match first with None -> "" | Some f -> Printf.sprintf "first move on cell %d, then " f in
  let opponent = 3 - player in
  Printf.sprintf "player %d does not lose from %s (%s): %seach move of player %d answered on its pair's other cell; %s block all %s open to player %d (%d more through player %d's cells), so player %d completes no line"
    player where r.goal opening opponent (counted (List.length read) "pair" "pairs")
    (counted (List.length r.lines - blocked) "line" "lines") opponent blocked player opponent
