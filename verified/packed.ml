(* The set of positions of a positional proof tree, as the traversal fills it and as
   Positional.closed judges it -- untrusted: a wrong set is refused by the proved check.

   While the traversal runs, each board seen is kept as its code: the 3^5 = 243 values of its
   groups of five cells (Packed.v's [F i], i = 81a + 27b + 9c + 3d + e with Empty 0, Cross 1,
   Nought 2), seven to an OCaml int, first group most significant, so that comparing codes int by
   int is Packed.packed_compare's order; the last group is padded with empty cells and the last int
   with groups F0, as Packed.encode pads. A 5x5 or 4x8 board is one int. The codes sit in an
   open-addressing table (8 bytes a slot and 4 for the position's number, at most half full).
   Then [tree] sorts them and builds Positional.v's search tree, balanced: one node (40 bytes) and
   a packed board's first block (56 bytes, 25 cells) a position, its later blocks shared with every
   board that has the same. When the check needs no position's number, [release] gives the table
   back before it runs. *)

(* The numbers 0..255 as Rocq numbers, made once: a move index, a cell of a closure. *)
let small = Array.init 256 Positional.nat_of_int

let per_int = 7 (* groups a code int: 243^7 < 2^56 *)

type t = {
  width : int;                (* ints a code *)
  scratch : int array;        (* the code of the board asked about *)
  mutable slots : int;        (* a power of two *)
  mutable codes : int array;  (* width ints a slot; -1 first: an empty slot *)
  mutable numbers : Bytes.t;  (* 4 bytes a slot: the position's number *)
  mutable count : int;
  mutable choices : Bytes.t;  (* by number: the prover's chosen move *)
}

let groups cells = (cells + 4) / 5

let create cells =
  let width = (groups cells + per_int - 1) / per_int in
  { width; scratch = Array.make width 0; slots = 1024; codes = Array.make (1024 * width) (-1);
    numbers = Bytes.create (1024 * 4); count = 0; choices = Bytes.create 1024 }

let mark_value = function Core.Empty -> 0 | Core.Cross -> 1 | Core.Nought -> 2

(* The board's code into [t.scratch]. *)
let encode t (b : Core.board) =
  let word = ref 0 and group = ref 0 and in_group = ref 0 and in_word = ref 0 and at = ref 0 in
  let end_group () =
    word := !word * 243 + !group; group := 0; in_group := 0; incr in_word;
    if !in_word = per_int then (t.scratch.(!at) <- !word; incr at; word := 0; in_word := 0) in
  List.iter (fun m ->
      group := !group * 3 + mark_value m; incr in_group;
      if !in_group = 5 then end_group ()) b;
  if !in_group > 0 then begin
    while !in_group < 5 do group := !group * 3; incr in_group done;
    end_group ()
  end;
  if !in_word > 0 then begin
    while !in_word < per_int do word := !word * 243; incr in_word done;
    t.scratch.(!at) <- !word
  end

let hash t =
  let h = ref 0 in
  for i = 0 to t.width - 1 do h := (!h lxor t.scratch.(i)) * 0x2545F4914F6CDD1D done;
  (!h lxor (!h lsr 29)) land (t.slots - 1)

let same t slot =
  let rec go i = i = t.width || (t.codes.(slot * t.width + i) = t.scratch.(i) && go (i + 1)) in
  go 0

(* The slot holding the scratch code, or the empty slot where it would go. *)
let probe t =
  let rec go s = if t.codes.(s * t.width) = -1 || same t s then s else go ((s + 1) land (t.slots - 1)) in
  go (hash t)

let number t b =
  encode t b;
  let s = probe t in
  if t.codes.(s * t.width) = -1 then -1 else Int32.to_int (Bytes.get_int32_le t.numbers (s * 4))

let grow t =
  let old_codes = t.codes and old_numbers = t.numbers and old_slots = t.slots in
  t.slots <- 2 * old_slots;
  t.codes <- Array.make (t.slots * t.width) (-1);
  t.numbers <- Bytes.create (t.slots * 4);
  for s = 0 to old_slots - 1 do
    if old_codes.(s * t.width) <> -1 then begin
      Array.blit old_codes (s * t.width) t.scratch 0 t.width;
      let d = probe t in
      Array.blit old_codes (s * t.width) t.codes (d * t.width) t.width;
      Bytes.blit old_numbers (s * 4) t.numbers (d * 4) 4
    end
  done;
  if Bytes.length t.choices < t.slots then begin
    let c = Bytes.create t.slots in
    Bytes.blit t.choices 0 c 0 t.count;
    t.choices <- c
  end

(* A board not yet in the set, with the index of the prover's chosen move; its number. *)
let add t b choice =
  if 2 * (t.count + 1) > t.slots then grow t;
  encode t b;
  let s = probe t in
  Array.blit t.scratch 0 t.codes (s * t.width) t.width;
  Bytes.set_int32_le t.numbers (s * 4) (Int32.of_int t.count);
  Bytes.set t.choices t.count (Char.chr choice);
  t.count <- t.count + 1;
  t.count - 1

let choice t n = Char.code (Bytes.get t.choices n)

(* The table's memory back to the heap (a third of the set's on Qubic), once the trees are built
   and no position is asked for again: [number] and [choice] then fail. *)
let release t =
  t.slots <- 0; t.codes <- [||]; t.numbers <- Bytes.empty; t.choices <- Bytes.empty

(* The 243 groups, as Core's constant constructors (made by the extracted pack5). *)
let fives =
  let m v = match v with 0 -> Core.Empty | 1 -> Core.Cross | _ -> Core.Nought in
  Array.init 243 (fun i -> Core.pack5 (m (i / 81)) (m (i / 27 mod 3)) (m (i / 9 mod 3)) (m (i / 3 mod 3)) (m (i mod 3)))

let rec pow n k = if k = 0 then 1 else n * pow n (k - 1)

(* Positional.v's search tree of the positions [select] keeps (by number: the value stored, or
   [None] to leave a position out), balanced, in code order. *)
let tree t cells (select : int -> Core.nat option) : Core.bst =
  let number slot = Int32.to_int (Bytes.get_int32_le t.numbers (slot * 4)) in
  let occupied = Array.make t.count 0 and k = ref 0 in
  for s = 0 to t.slots - 1 do
    if t.codes.(s * t.width) <> -1 && select (number s) <> None then (occupied.(!k) <- s; incr k)
  done;
  let occupied = Array.sub occupied 0 !k in
  let compare_slots a b =
    let rec go i = if i = t.width then 0 else
        let c = compare (t.codes.(a * t.width + i) : int) t.codes.(b * t.width + i) in
        if c <> 0 then c else go (i + 1) in
    go 0 in
  Array.sort compare_slots occupied;
  let n = groups cells in
  (* A board's blocks after its first are shared with every board that has the same ones: the
     first block (25 cells) nearly tells boards apart, the rest repeat (Qubic's 64 cells are three
     blocks). [tails] names each block built so far by its five groups and the number of the
     block after it (0 for PEnd). *)
  let tails = Hashtbl.create 4096 in
  let group_code slot g = if g >= n then 0
    else t.codes.(slot * t.width + g / per_int) / pow 243 (per_int - 1 - g mod per_int) mod 243 in
  let group slot g = fives.(group_code slot g) in
  let rec tail slot g = if g >= n then (0, Core.PEnd) else
      let after, rest = tail slot (g + 5) in
      let five = List.fold_left (fun code i -> code * 243 + group_code slot (g + i)) 0 [0; 1; 2; 3; 4] in
      match Hashtbl.find_opt tails (five, after) with
      | Some shared -> shared
      | None ->
        let block = (Hashtbl.length tails + 1, Core.P (group slot g, group slot (g + 1), group slot (g + 2),
                                                        group slot (g + 3), group slot (g + 4), rest)) in
        Hashtbl.add tails (five, after) block; block in
  let packed slot =
    Core.P (group slot 0, group slot 1, group slot 2, group slot 3, group slot 4, snd (tail slot 5)) in
  let rec build lo hi =
    if lo >= hi then Core.Tip
    else
      let mid = (lo + hi) / 2 in
      let slot = occupied.(mid) in
      let value = match select (number slot) with Some v -> v | None -> small.(0) in
      Core.Bin (build lo mid, packed slot, value, build (mid + 1) hi) in
  build 0 !k
