(* Images and blocks as the traversal reads them (checker/proof.py, checker/positional.py) --
   untrusted: Images.v's [valid] judges each permutation again, the proved check asks every image
   to stand for a position of the set, and Blocks.v's check finds the completion cells itself. A
   wrong answer here can only make the set wrong, which the check refuses, or the words of an
   error differ from the stdlib checker's, which the tests compare. *)

open Load

(* A proof's symmetry [index] (checker/positional.py symmetry): a permutation of the cells (the mark
   on cell i goes to cell p.(i)) mapping the set of lines onto itself; Images.valid judges its
   inverse ([inverse]). *)
let symmetry (r : Positional.rules) (raw : json) (index : int) : int array =
  let cells = r.Positional.rows * r.Positional.cols in
  let where = Printf.sprintf "proof.symmetries[%d]" index in
  let p = match raw with
    | Arr l when List.length l = cells && List.for_all (function Int _ -> true | _ -> false) l ->
      Array.of_list (List.map (function Int c -> c | _ -> 0) l)
    | _ -> error "%s must be an array of %d integers" where cells in
  if List.sort compare (Array.to_list p) <> List.init cells Fun.id then
    error "%s is not a permutation of the cells 0..%d" where (cells - 1);
  let lines = Hashtbl.create 128 in
  List.iter (fun l -> Hashtbl.replace lines l ()) r.Positional.lines;
  if List.exists (fun l -> not (Hashtbl.mem lines (List.sort compare (List.map (fun c -> p.(c)) l)))) r.Positional.lines then
    error "%s does not map every line onto a line" where;
  p

(* The board with the mark on cell i moved to cell p.(i) (checker/positional.py image). *)
let image (b : Core.board) (p : int array) : Core.board =
  let out = Array.make (Array.length p) Core.Empty in
  List.iteri (fun i m -> out.(p.(i)) <- m) b;
  Array.to_list out

(* The permutation Images.act takes for [p]: cell k of the image holds what cell (inverse p).(k)
   of the board holds. *)
let inverse (p : int array) : int array =
  let q = Array.make (Array.length p) 0 in
  Array.iteri (fun i c -> q.(c) <- i) p;
  q

(* The empty cells where [mark] would complete a line now (checker/positional.py completions). *)
let completions (r : Positional.rules) (b : Core.board) (mark : Core.mark) : int list =
  let a = Array.of_list b in
  List.sort_uniq compare (List.filter_map (fun l ->
      match List.filter (fun c -> a.(c) = Core.Empty) l with
      | [e] when List.for_all (fun c -> c = e || a.(c) = mark) l -> Some e
      | _ -> None) r.lines)

(* With proof.replies "blocks", the replies listed at an opponent's position [b] of a proof of
   [prover] (checker/proof.py): where the prover has a line to complete and the opponent none,
   the moves on those cells; [None] where every reply is listed. [children] are [b]'s, one a cell
   in cell order (own marks). *)
let blocks_listed (r : Positional.rules) (prover : Core.player) (b : Core.board) (children : Core.board list) : Core.board list option =
  let mark p = if p = Core.P1 then Core.Cross else Core.Nought in
  let threats = completions r b (mark prover) in
  if threats = [] || completions r b (mark (if prover = Core.P1 then Core.P2 else Core.P1)) <> [] then None
  else begin
    let empties = List.concat (List.mapi (fun i m -> if m = Core.Empty then [i] else []) b) in
    Some (List.filter_map (fun (c, child) -> if List.mem c threats then Some child else None) (List.combine empties children))
  end
