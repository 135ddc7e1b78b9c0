(* The strategy kind, for every family the verified checker reads. Trusted: reading the claim (its
   bound too) and the root, and the one call of the family's proved closure check (Strategy.closed,
   Count.closed; Bounded.closed_within, Count.closed_within for a bound) that decides VALID. Untrusted: the traversal that builds the set of positions from
   proof.moves (a wrong set is refused by the closure check) -- with the stdlib checker's failures,
   so that the two checkers give the same line (checker/proof.py). *)

open Load

(* A family as the traversal sees it: Core's game functions, the set the traversal fills and the
   closure check proved for it, and the trusted words of its verdicts. *)
(* A closure as the driver read it, handed to the proved check: a pairing (first move, pairs) or a
   count record (Count.count_record: two bytes, or a deep one naming a record for each reply),
   built from its bytes when the check asks for it (a proof's records hold millions). *)
type closure = Pair of Core.nat option * (Core.nat * Core.nat) list | Count of (unit -> Core.count_record)

type 'state family = {
  children : 'state -> 'state list;
  result : 'state -> Core.outcome option;
  to_move : 'state -> Core.player;
  positions : bool -> 'state positions; (* an empty set, for one traversal (true: of a bounded proof) *)
  empties : 'state -> int;
  counts : bool; (* Ultimate tic-tac-toe: closures are counts (proof.counts), not pairings *)
  (* a closure met at a prover's position: its bytes [start, stop) of the raw closures, read
     (untrusted) and handed to the proved check; the plies left *)
  read_closure : string -> int * int -> 'state -> int -> int -> closure;
  (* the same closure checked with the stdlib checker's failures, word for word (untrusted, raises
     Invalid): run only to say why, when the traversal or the proved check refuses (a count record
     is then not evaluated twice on a valid file) *)
  explain_closure : string -> int * int -> 'state -> int -> int -> unit;
  rules : Positional.rules option; (* the positional family's, whose proofs may close by pairings *)
  (* with proof.replies "blocks": the replies listed at an opponent's position, given its
     children, if not all (Symmetric.blocks_listed) *)
  listed : Core.player -> 'state -> 'state list -> 'state list option;
  image : 'state -> int array -> 'state; (* a position under a symmetry (Symmetric.image) *)
  as_board : 'state -> Core.board option;
  draw : 'state -> string;
  position_work : int;
  initial : unit -> 'state;
  parse_position : string -> 'state;
}

(* The positions a traversal saw, numbered 0, 1, 2... as added, each with the index of the prover's
   chosen move; [closed] runs the family's proved closure check (Strategy.closed, Uttt.closed) on
   them, with the closures [closure] gives, and the symmetries (as Images.act takes them) by which
   the positions [aliases] numbers are images of others. [None] for [closure]: the proof has no
   closures, so the check asks no position its number, and the set may free what numbers them --
   the set then answers nothing more (call [closed] last). *)
and 'state positions = {
  number : 'state -> int; (* -1: not in the set *)
  add : 'state -> int -> int;
  choice : int -> int;
  closed : ('state -> closure option) option -> int array array -> (int, int) Hashtbl.t -> Core.player -> bool -> 'state -> bool;
  closed_within : ('state -> closure option) -> Core.player -> bool -> Core.nat -> 'state -> bool;
}

let rec int_of_nat = function Core.O -> 0 | Core.S n -> 1 + int_of_nat n

(* A closure's byte in proof.moves, and a closure's first byte when the prover makes no first move
   (checker/proof.py CLOSE, NO_FIRST_MOVE). *)
let close = 255
let image_byte = 253 (* checker/proof.py IMAGE *)

(* The pairings of proof.pairings (checker/proof.py closures_of): per closure the first move (255:
   none), the number of pairs k, then k pairs of cells, one byte each; untrusted but for what
   Pairing.pairing_check then judges. *)
let closures_of f proof no_loss turns limits : (int * int) array * string =
  let has = match proof with Obj fields -> List.mem_assoc "closures" fields | _ -> false in
  if not has then ([||], "") else if f.counts then begin
    (* checker/proof.py closures_of: per closure a move (255: none) and a count, or 254, a move, k and k such records *)
    let count = int_in "proof" "closures" 0 turns proof in
    if not no_loss then invalid "a count closes a branch only in a no-loss proof";
    let size = int_in "proof" "closure_bytes" (2 * count) (1731 * count) proof in (* 3 + 9 (3 + 9 (3 + 9 * 2)): nested 3 deep *)
    let work = size / 2 * f.position_work in (* a record of two bytes checks about one position *)
    if work > limits.max_work then
      error "proof.counts holds %s bytes, work %s: over the work budget (%s work); to check them, raise it: --max-work %d"
        (String.trim (Positional.counted size "" "")) (String.trim (Positional.counted work "" ""))
        (String.trim (Positional.counted limits.max_work "" "")) work;
    let raw = Unpack.field "proof" "counts" size proof in
    let found = ref [] and offset = ref 0 in
    while !offset < size do
      let length = Uttt.record_length raw !offset Uttt.nest in
      if length = 0 then
        error "proof.counts: closure %d runs past the end of its bytes or nests deeper than %d" (List.length !found) Uttt.nest;
      found := (!offset, !offset + length) :: !found;
      offset := !offset + length
    done;
    if List.length !found <> count then error "proof.counts holds %d closures, proof.closures says %d" (List.length !found) count;
    (Array.of_list (List.rev !found), raw)
  end else begin
    let count = int_in "proof" "closures" 0 turns proof in
    let cells = match f.rules with Some r -> r.Positional.rows * r.Positional.cols | None -> 0 in
    (* checker/proof.py: cells + 3 bytes a closure, the longest potential record (254, a first move, k and
       k pairs); a pairing takes at most cells + 2 *)
    let size = int_in "proof" "closure_bytes" 0 (match f.rules with Some _ -> count * (cells + 3) | None -> 0) proof in
    let raw = Unpack.field "proof" "pairings" size proof in
    if count > 0 && (f.rules = None || not no_loss) then
      invalid "a pairing closes a branch only in a no-loss proof of a positional game";
    (match f.rules with
     | Some r when count > 0 ->
       Pairing.refuse_rules r;
       if cells > close then error "closures take boards of at most %d cells, not %d" close cells;
       let work = count * (List.fold_left (fun n l -> n + List.length l) 0 r.Positional.lines + cells) in
       if work > limits.max_work then
         error "proof.closures = %s and work %s: over the work budget (%s work); to check them, raise it: --max-work %d"
           (String.trim (Positional.counted count "" "")) (String.trim (Positional.counted work "" ""))
           (String.trim (Positional.counted limits.max_work "" "")) work
     | _ -> ());
    let found = ref [] and offset = ref 0 in
    while !offset < size do
      (* a potential closure (first byte 254, checker/pairing.py potential) is not proved here *)
      if Char.code raw.[!offset] = 254 then
        unread "potential closures (record 254, docs/certificate-format.md) are not proved in verified/ yet; `python -m checker` reads them";
      let stop = if !offset + 1 < size then !offset + 2 + 2 * Char.code raw.[!offset + 1] else size + 1 in
      if stop > size then error "proof.pairings: closure %d runs past the end of its bytes" (List.length !found);
      found := (!offset, stop) :: !found;
      offset := stop
    done;
    if List.length !found <> count then
      error "proof.pairings holds %d closures, proof.closures says %d" (List.length !found) count;
    (Array.of_list (List.rev !found), raw)
  end

(* The closure at bytes [start, stop): its first move and pairs, as JSON values for Pairing.blocking. *)
let closure_at raw (start, stop) =
  let byte i = Char.code raw.[i] in
  let first = if byte start = close then None else Some (Int (byte start)) in
  let pairs = List.init ((stop - start - 2) / 2) (fun k -> Arr [Int (byte (start + 2 + 2 * k)); Int (byte (start + 3 + 2 * k))]) in
  (first, pairs)

(* Walk the certificate's canonical traversal (docs/certificate-format.md), with the stdlib
   checker's failures, and return the positions seen with the prover's chosen move index. *)
(* The move indices as Rocq numbers, made once (an index is a byte). *)
let small = Packed.small

(* The closures read so far, checked in the traversal's order with the stdlib checker's failures:
   the first bad one raises its message. *)
let explain f raw (pending : ('state * (int * int) * int) Queue.t) player =
  Queue.iter (fun (b, span, left) -> f.explain_closure raw span b player left) pending

let traverse ?(closures = ([||], "")) ~closing ?(stops = Hashtbl.create 1) ?(pending = Queue.create ()) ?within
    ?(symmetries = ([||], "")) ?(aliases = Hashtbl.create 1) ?(blocks = false)
    f player no_loss root positions turns moves : 'state positions =
  let prover = if player = 1 then Core.P1 else Core.P2 in
  let spans, raw = closures and closed = ref 0 in
  let perms, images = symmetries and imaged = ref 0 in
  let seen = f.positions (within <> None) and count = ref 0 and used = ref 0 in
  let stack = Stack.create () in
  Stack.push (root, 0) stack;
  (* a failure of the traversal: the stdlib checker would have refused a bad closure met before it *)
  try
  while not (Stack.is_empty stack) do
    let b, ply = Stack.pop stack in
    if seen.number b < 0 then begin
      incr count;
      if !count mod 100_000 = 0 then progress "positions" !count;
      if !count > positions then invalid "the strategy reaches more than proof.positions = %d positions" positions;
      let choice = ref 0 in
      (match f.children b with
       | _ :: _ when within = Some ply ->
         (* the bound: for a win, play must have ended; for a no-loss claim, an end that is not a loss *)
         if not no_loss then invalid "play reaches ply %d without an end at %s" ply (f.draw b);
         Hashtbl.replace stops (!count - 1) ()
       | [] ->
         let score = match f.result b with
           | Some (Core.Won p) -> if p = prover then 1 else -1 | _ -> 0 in
         if score < (if no_loss then 0 else 1) then
           invalid "play reaches the end %s, a %s for player %d" (f.draw b) (Positional.value_word score) player
       | children when f.to_move b = prover ->
         if !used = turns then
           invalid "proof.moves ends before player %d's turn at %s" player (f.draw b);
         let index = Char.code moves.[!used] in
         incr used;
         if index = close && Array.length spans > 0 then begin
           if !closed = Array.length spans then
             invalid "proof.moves[%d] closes %s, but proof.closures has only %d" (!used - 1) (f.draw b)
               (Array.length spans);
           let left = match within with None -> 81 | Some w -> w - ply in
           (* by the number [add] gives it below *)
           Hashtbl.replace closing (!count - 1) (f.read_closure raw spans.(!closed) b player left);
           Queue.add (b, spans.(!closed), left) pending;
           incr closed
         end else if index = image_byte && Array.length perms > 0 then begin
           (* checker/proof.py IMAGE: the position is named the image of one seen before *)
           if !imaged = String.length images then
             invalid "proof.moves[%d] names %s an image, but proof.images has only %d" (!used - 1) (f.draw b)
               (String.length images);
           let j = Char.code images.[!imaged] in
           if j >= Array.length perms then
             invalid "proof.images[%d] = %d, but proof.symmetries has only %d" !imaged j (Array.length perms);
           let other = f.image b perms.(j) in
           if other = b then invalid "proof.images[%d] maps %s to itself" !imaged (f.draw b);
           if seen.number other < 0 then
             invalid "proof.images[%d] maps %s to %s, which the strategy has not reached" !imaged (f.draw b) (f.draw other);
           Hashtbl.replace aliases (!count - 1) (j, b, other);
           incr imaged
         end else begin
         if index >= List.length children then
           invalid "proof.moves[%d] = %d at %s, which has only %d legal moves" (!used - 1) index
             (f.draw b) (List.length children);
         choice := index;
         Stack.push (List.nth children index, ply + 1) stack
         end
       | children ->
         let listed = if blocks then Option.value (f.listed prover b children) ~default:children else children in
         List.iter (fun c -> Stack.push (c, ply + 1) stack) (List.rev listed));
      ignore (seen.add b !choice)
    end
  done;
  if !used <> turns then invalid "proof.moves has %d move(s) the strategy never uses" (turns - !used);
  if !closed <> Array.length spans then
    invalid "proof.closures has %d closure(s) the strategy never uses" (Array.length spans - !closed);
  if !imaged <> String.length images then
    invalid "proof.images has %d image(s) the strategy never uses" (String.length images - !imaged);
  if !count <> positions then
    invalid "proof.positions = %d, but the strategy reaches %d positions" positions !count;
  seen
  with e -> explain f raw pending player; raise e

(* The closure of a position of the set, as the driver read it: judged again by the proved check. *)
let closure_of closing (seen : 'state positions) s : closure option = Hashtbl.find_opt closing (seen.number s)

(* Untrusted, only stated in the verdict (as the stdlib checker states it): the longest play the
   strategy allows from [root], in plies, over the positions the traversal saw. *)
let longest ~closing ?(stops = Hashtbl.create 1) ?(aliases = Hashtbl.create 1) ?(blocks = false) f prover
    (seen : 'state positions) positions root =
  let memo = Bytes.make positions '\255' in (* a play is shorter than 255 plies: boards of at most 255 cells *)
  let rec height b =
    let n = seen.number b in
    if Bytes.get memo n <> '\255' then Char.code (Bytes.get memo n)
    else begin
      let h = match f.children b with
        | [] -> 0
        | _ when Hashtbl.mem closing n || Hashtbl.mem stops n -> 0
        | _ when Hashtbl.mem aliases n -> let _, _, other = Hashtbl.find aliases n in height other
        | children when f.to_move b = prover -> 1 + height (List.nth children (seen.choice n))
        | children ->
          (* a reply not listed is lost at once: a play of two plies (checker/proof.py) *)
          let listed = if blocks then Option.value (f.listed prover b children) ~default:children else children in
          1 + List.fold_left (fun m c -> max m (height c)) (if List.length listed < List.length children then 1 else 0) listed in
      Bytes.set memo n (Char.chr h);
      h
    end in
  height root

(* The permutations of proof.symmetries, each checked as the stdlib checker does (Images.valid
   judges them again), and the bytes of proof.images (checker/proof.py images_of). *)
let images_of f proof turns limits : int array array * string =
  match proof with
  | Obj fields when List.mem_assoc "symmetries" fields ->
    let r = match f.rules with
      | Some r -> r
      | None -> error "proof.symmetries: only a positional game's proof names positions as images" in
    let raw = match member "proof" "symmetries" proof with
      | Arr l -> l | v -> error "proof.symmetries must be array, found %s" (type_name v) in
    let count = int_in "proof" "image_count" 0 turns proof in
    let listed = List.length raw in
    if listed < 1 || listed > 256 then error "proof.symmetries lists %d permutations, not 1 to 256" listed;
    let work = listed * List.fold_left (fun n l -> n + List.length l) 0 r.Positional.lines + count * r.rows * r.cols in
    if work > limits.max_work then
      error "proof.symmetries and proof.images: work %s, over the work budget (%s work); to check them, raise it: --max-work %d"
        (grouped work) (grouped limits.max_work) work;
    let perms = Array.of_list (List.mapi (fun i p -> Symmetric.symmetry r p i) raw) in
    (perms, Unpack.field "proof" "images" count proof)
  | _ -> ([||], "")

(* Whether proof.replies is "blocks" (checker/proof.py blocks_of). *)
let blocks_of f proof positions limits : bool =
  match proof with
  | Obj fields when List.mem_assoc "replies" fields ->
    ignore (word "proof" "replies" ["blocks"] proof);
    (match f.rules with
     | Some r when r.Positional.marks = "own" && r.goal = "first-line-wins" ->
       let work = positions * 2 * List.fold_left (fun n l -> n + List.length l) 0 r.lines in
       if work > limits.max_work then
         error "proof.replies: work %s, over the work budget (%s work); to check them, raise it: --max-work %d"
           (grouped work) (grouped limits.max_work) work
     | _ -> error "proof.replies: only blocks are listed, and only in a positional game of own marks whose first line wins");
    true
  | _ -> false

(* Untrusted: the symmetry by which each position named an image stands for a position of the set
   itself -- the one the file names, or, where that one is itself an image (the stdlib checker takes
   any position seen), another of the file's symmetries that maps it to one of the set. *)
let resolve f perms (seen : 'state positions) aliases : (int, int) Hashtbl.t =
  let named = Hashtbl.create (Hashtbl.length aliases) in
  let plain b = let n = seen.number b in n >= 0 && not (Hashtbl.mem aliases n) in
  Hashtbl.iter (fun n (j, b, other) ->
      let k = if plain other then j else
          let rec find k = if k = Array.length perms then j
            else if plain (f.image b perms.(k)) then k else find (k + 1) in
          find 0 in
      Hashtbl.replace named n k) aliases;
  named

let check limits f doc : string =
  let claim = obj "certificate" "claim" doc in
  let player = int_in "claim" "player" 1 2 claim in
  let result = word "claim" "result" ["win"; "no-loss"] claim in
  let root_text = match member "claim" "root" claim with
    | Null -> None | Str s -> Some s | v -> error "claim.root must be string or null, found %s" (type_name v) in
  (* checker/proof.py: claim.within absent or null (unbounded), else an integer of at least 1 *)
  let within, within_text = match claim with
    | Obj fields when List.mem_assoc "within" fields ->
      (match List.assoc "within" fields with
       | Null -> (None, "")
       | Int w when w >= 1 -> (Some w, string_of_int w)
       | Int w -> error "claim.within = %d: a bound is at least 1 ply" w
       | Big text when text.[0] = '-' -> error "claim.within = %s: a bound is at least 1 ply" text
       | Big text -> (Some max_int, text) (* past any play: the traversal never meets it *)
       | v -> error "claim.within must be integer or null, found %s" (type_name v))
    | _ -> (None, "") in
  let proof = obj "certificate" "proof" doc in
  ignore (word "proof" "traversal" ["dfs-preorder"] proof);
  let positions = int_in "proof" "positions" 1 1_000_000_000_000_000_000 proof in
  let unit = f.position_work in
  if positions > limits.max_states || positions > limits.max_work / unit then
    (let work = Positional.product positions unit in (* checker/proof.py's line, word for word: past max_int too *)
     error "proof.positions = %s and work %s: over the work budget (%s positions, %s work); to check a large proof, raise it: --max-states %d --max-work %s"
       (grouped positions) (grouped_text work) (grouped limits.max_states)
       (grouped limits.max_work) positions work);
  let turns = int_in "proof" "turns" 0 positions proof in
  let moves = Unpack.field "proof" "moves" turns proof in
  let no_loss = result = "no-loss" in
  let closures = closures_of f proof no_loss turns limits in
  let symmetries = images_of f proof turns limits in
  let blocks = blocks_of f proof positions limits in
  if within <> None && (Array.length (fst symmetries) > 0 || blocks) then
    unread "bounded proofs with images or listing only blocks are not proved in verified/ yet; `python -m checker` reads them";
  let root = match root_text with None -> f.initial () | Some t -> f.parse_position t in
  let prover = if player = 1 then Core.P1 else Core.P2 in
  let closing = Hashtbl.create 64 in
  let stops = Hashtbl.create 64 and pending = Queue.create () in
  let aliases = Hashtbl.create 64 in
  let seen = traverse ~closures ~closing ~stops ~pending ?within ~symmetries ~aliases ~blocks
      f player no_loss root positions turns moves in
  let named = resolve f (fst symmetries) seen aliases in
  (match f.rules with
   | Some r when Array.length (fst symmetries) > 0 && (r.Positional.marks <> "own" || r.goal = "most-lines") ->
     (* Images.valid takes own marks and a first-line goal only (Images.v proves no other); the
        traversal above has given the stdlib checker's INVALID, if any *)
     unread "images in games of marks %s, goal %s are not proved in verified/ yet (own marks and a first-line goal are); `python -m checker` reads them"
       r.marks r.goal
   | _ -> ());
  (* the verdict's counts before the check, which may free the numbering they read *)
  let plies = longest ~closing ~stops ~aliases ~blocks f prover seen positions root in
  let closed = Hashtbl.length closing and any = Array.length (fst closures) > 0 in
  let imaged = Hashtbl.length aliases in
  Hashtbl.reset aliases; (* its boards: 3 KB an image on Qubic *)
  (* The one verdict that matters: the family's closed_wins / closed_no_loss (Count.closed_claims;
     for a bound, closed_within_claims) prove the claim from it. A bound past the root's empty
     cells is checked at the empty cells plus one, which proves it for every larger bound (the
     same lemma). *)
  let accepted = match within with
    | None -> seen.closed (if closed = 0 then None else Some (closure_of closing seen)) (fst symmetries) named prover no_loss root
    | Some w -> seen.closed_within (closure_of closing seen) prover no_loss (Positional.nat_of_int (min w (f.empties root + 1))) root in
  if not accepted then begin
    (* only now the closures with the stdlib checker's failures, for its message *)
    explain f (snd closures) pending player;
    invalid "the closure check refuses the set of positions the traversal built"
  end;
  let where = match root_text with None -> "the start"
                                 | Some _ -> "position " ^ f.draw root in
  let how = if f.counts then "a count" else "a pairing" in
  Printf.sprintf "player %d %s%s from %s: %s, %s of player %d%s%s%s checked; %s %s"
    player (if no_loss then "does not lose" else "wins")
    (if within = None then "" else " within " ^ within_text ^ " plies") where
    (Positional.counted positions "position" "positions") (Positional.counted (turns - closed - imaged) "move" "moves") player
    (if any then ", " ^ Positional.counted closed "position" "positions" ^ " closed by " ^ how else "")
    (if Array.length (fst symmetries) > 0 then ", " ^ Positional.counted imaged "position" "positions" ^ " as symmetric images of others" else "")
    (if blocks then Printf.sprintf ", only blocks listed where player %d has a line to complete" player else "")
    (if any then "the longest play to an end or " ^ how ^ " lasts" else "the longest play lasts")
    (Positional.counted plies "ply" "plies")

(* The two families. *)
(* A positive number, for a key. *)
let rec positive_of_int n = if n <= 1 then Core.XH
  else if n land 1 = 1 then Core.XI (positive_of_int (n lsr 1)) else Core.XO (positive_of_int (n lsr 1))

(* Untrusted (closed_wins holds for any key): an Ultimate tic-tac-toe state's key is the number
   the traversal gave it, about 20 bits where two bits a cell would be 190, so that the set stays
   small; the closure check asks without numbering: a state the traversal never saw gets key 1,
   which no state has. The set is Checker.v's trie of states; a state is found by its text (one
   for each state). *)
let mark_char m = match m with Core.Empty -> '.' | Core.Cross -> 'X' | Core.Nought -> 'O'

let uttt_text (s : Core.state) =
  let b = Buffer.create 96 in
  let mark m = Buffer.add_char b (mark_char m) in
  List.iter (List.iter mark) s.Core.grid;
  List.iter mark s.Core.owners;
  Buffer.add_string b (match s.Core.sent with None -> "*" | Some n -> string_of_int (int_of_nat n));
  Buffer.contents b

(* The closures of one kind, as the family's proved check takes them. *)
let pairs_of c s = match c s with Some (Pair (first, pairs)) -> Some (first, pairs) | _ -> None
let counts_of c s = match c s with Some (Count r) -> Some (r ()) | _ -> None

let uttt_positions (r : Core.ruleset) _ : Core.state positions =
  let ids = Hashtbl.create 65536 and set = ref Core.M.empty in
  let number s = match Hashtbl.find_opt ids (uttt_text s) with Some n -> n | None -> -1 in
  let key n = positive_of_int (n + 2) in
  { number;
    add = (fun s c -> let n = Hashtbl.length ids in
            Hashtbl.add ids (uttt_text s) n; set := Core.M.add (key n) (s, small.(c)) !set; n);
    choice = (fun n -> match Core.M.find (key n) !set with Some (_, c) -> int_of_nat c | None -> 0);
    closed = (fun c _ _ prover no_loss root ->
        let c = Option.value c ~default:(fun _ -> None) in
        Core.uttt_closed r (fun s -> let n = number s in if n < 0 then Core.XH else key n) (counts_of c) prover no_loss !set root);
    closed_within = (fun c prover no_loss bound root ->
        Core.uttt_closed_within r (fun s -> let n = number s in if n < 0 then Core.XH else key n) (counts_of c)
          prover no_loss bound !set root) }

(* A positional board is kept packed (packed.ml), and judged by Positional.closed; a bounded proof's
   boards are also kept in Checker.v's trie, keyed by their number, for Bounded.closed_within (which
   holds for any key). *)
let positional_positions game cells bounded : Core.board positions =
  let t = Packed.create cells and trie = ref Core.M.empty in
  let key n = positive_of_int (n + 2) in
  { number = Packed.number t; choice = Packed.choice t;
    add = (fun b c -> let n = Packed.add t b c in
            if bounded then trie := Core.M.add (key n) (b, small.(c)) !trie; n);
    closed = (fun closure perms named prover no_loss root ->
        let act p = Array.to_list (Array.map (fun c -> small.(c)) (Symmetric.inverse p)) in
        let plain = Packed.tree t cells (fun n -> if Hashtbl.mem named n then None else Some small.(Packed.choice t n)) in
        let images = Packed.tree t cells (fun n -> Option.map (fun j -> small.(j)) (Hashtbl.find_opt named n)) in
        (* the check reads the trees; without closures it never asks a position's number *)
        let closure = match closure with Some c -> c | None -> Packed.release t; (fun _ -> None) in
        Core.positional_closed game (pairs_of closure) (List.map act (Array.to_list perms)) prover no_loss (plain, images) root);
    closed_within = (fun closure prover no_loss bound root ->
        Core.positional_closed_within game (fun b -> let n = Packed.number t b in if n < 0 then Core.XH else key n)
          (pairs_of closure) prover no_loss bound !trie root) }

let positional (r : Positional.rules) : Core.board family =
  let game = Positional.game_of r in
  if r.rows * r.cols > 64 then error "the strategy kind covers boards of up to 64 cells, not %dx%d" r.rows r.cols;
  { children = Core.children game; result = Core.result game; to_move = Core.to_move;
    positions = positional_positions game (r.rows * r.cols); draw = Positional.draw_board r;
    rules = Some r; as_board = Option.some;
    listed = Symmetric.blocks_listed r; image = Symmetric.image;
    empties = (fun b -> List.length (List.filter (fun m -> m = Core.Empty) b)); counts = false;
    read_closure = (fun raw span b player _ ->
        let first, pairs = closure_at raw span in
        let first, read, _ = Pairing.blocking r b player first pairs in
        Pair (Option.map Positional.nat_of_int first,
              List.map (fun (x, y) -> (Positional.nat_of_int x, Positional.nat_of_int y)) read));
    explain_closure = (fun _ _ _ _ _ -> ()); (* read_closure said why already *)
    (* checker/positional.py position_work: twice the cells the line checks read and the board *)
    position_work = 2 * (List.fold_left (fun n l -> n + List.length l) 0 r.lines + r.rows * r.cols);
    initial = (fun () -> Positional.empty_board r); parse_position = Positional.parse_position r }

let uttt (r : Core.ruleset) : Core.state family =
  { children = Core.uttt_children r; result = Core.uttt_result r; to_move = Core.uttt_to_move;
    positions = uttt_positions r; draw = Uttt.draw_board r; rules = None; as_board = (fun _ -> None);
    listed = (fun _ _ _ -> None); image = (fun s _ -> s);
    empties = (fun s -> int_of_nat (Core.uttt_empties s)); counts = true;
    read_closure = (fun raw (start, _) _ _ _ -> Count (fun () -> fst (Uttt.record_at raw start)));
    explain_closure = (fun raw (start, _) s player left -> Uttt.check_count r s player left raw start);
    position_work = Uttt.position_work; initial = Uttt.initial; parse_position = Uttt.parse_position r }
