(* Packed arrays: base64, then zlib (untrusted: they only decode the prover's moves or a table's
   labels, which the proved checks then judge). *)

open Load

let base64 (text : string) : string =
  let n = String.length text in
  let value c = match c with
    | 'A' .. 'Z' -> Char.code c - 65 | 'a' .. 'z' -> Char.code c - 71 | '0' .. '9' -> Char.code c + 4
    | '+' -> 62 | '/' -> 63 | _ -> -1 in
  if n mod 4 <> 0 then error "not valid base64";
  let out = Buffer.create (n / 4 * 3) in
  for q = 0 to n / 4 - 1 do
    let c i = text.[4 * q + i] in
    let pad = (if c 3 = '=' then 1 else 0) + (if c 2 = '=' then 1 else 0) in
    if pad > 0 && q <> n / 4 - 1 || (c 2 = '=' && c 3 <> '=') then error "not valid base64";
    let v i = let x = value (c i) in if x < 0 && i < 4 - pad then error "not valid base64" else max x 0 in
    let bits = (v 0 lsl 18) lor (v 1 lsl 12) lor (v 2 lsl 6) lor v 3 in
    Buffer.add_char out (Char.chr (bits lsr 16));
    if pad < 2 then Buffer.add_char out (Char.chr ((bits lsr 8) land 255));
    if pad < 1 then Buffer.add_char out (Char.chr (bits land 255))
  done;
  Buffer.contents out

(* Inflate a zlib stream (RFC 1950/1951), refusing more than [cap] bytes of output. *)
let inflate (data : string) (cap : int) : string =
  let bad () = error "not valid zlib data" in
  let n = String.length data in
  if n < 6 then bad ();
  let cmf = Char.code data.[0] and flg = Char.code data.[1] in
  if cmf land 15 <> 8 || cmf lsr 4 > 7 || (cmf * 256 + flg) mod 31 <> 0 || flg land 32 <> 0 then bad ();
  let pos = ref 2 and bitbuf = ref 0 and bitcnt = ref 0 in
  let out = Buffer.create 1024 in
  let bits k =
    while !bitcnt < k do
      if !pos >= n then bad ();
      bitbuf := !bitbuf lor (Char.code data.[!pos] lsl !bitcnt); incr pos; bitcnt := !bitcnt + 8
    done;
    let v = !bitbuf land ((1 lsl k) - 1) in
    bitbuf := !bitbuf lsr k; bitcnt := !bitcnt - k; v in
  let emit c = if Buffer.length out >= cap then error "holds more bytes than declared"; Buffer.add_char out c in
  (* a canonical Huffman code as (counts per length, symbols by code); as zlib, refuse a code that
     is over-subscribed, or incomplete unless it is a literal or distance code of one symbol *)
  let build ?(lengths_code = false) ?(fixed = false) lengths =
    let count = Array.make 16 0 in
    Array.iter (fun l -> count.(l) <- count.(l) + 1) lengths;
    count.(0) <- 0;
    let left = ref 1 and longest = ref 0 in
    for l = 1 to 15 do
      left := 2 * !left - count.(l);
      if !left < 0 then bad ();
      if count.(l) > 0 then longest := l
    done;
    if not fixed && !longest > 0 && !left > 0 && (lengths_code || !longest <> 1) then bad ();
    let offs = Array.make 16 0 in
    for l = 1 to 14 do offs.(l + 1) <- offs.(l) + count.(l) done;
    let symbol = Array.make (Array.length lengths) 0 in
    Array.iteri (fun s l -> if l > 0 then (symbol.(offs.(l)) <- s; offs.(l) <- offs.(l) + 1)) lengths;
    (count, symbol) in
  let decode (count, symbol) =
    let rec go len code first index =
      if len > 15 then bad ();
      let code = code lor bits 1 in
      let c = count.(len) in
      if code - c < first then symbol.(index + code - first)
      else go (len + 1) (code lsl 1) ((first + c) lsl 1) (index + c) in
    go 1 0 0 0 in
  let lbase = [|3;4;5;6;7;8;9;10;11;13;15;17;19;23;27;31;35;43;51;59;67;83;99;115;131;163;195;227;258|]
  and lext = [|0;0;0;0;0;0;0;0;1;1;1;1;2;2;2;2;3;3;3;3;4;4;4;4;5;5;5;5;0|]
  and dbase = [|1;2;3;4;5;7;9;13;17;25;33;49;65;97;129;193;257;385;513;769;1025;1537;2049;3073;
                4097;6145;8193;12289;16385;24577|]
  and dext = [|0;0;0;0;1;1;2;2;3;3;4;4;5;5;6;6;7;7;8;8;9;9;10;10;11;11;12;12;13;13|] in
  let codes lit dist =
    let rec go () =
      let sym = decode lit in
      if sym < 256 then (emit (Char.chr sym); go ())
      else if sym > 256 then begin
        let sym = sym - 257 in
        if sym >= 29 then bad ();
        let len = lbase.(sym) + bits lext.(sym) in
        let d = decode dist in
        if d >= 30 then bad ();
        let d = dbase.(d) + bits dext.(d) in
        if d > Buffer.length out then bad ();
        for _ = 1 to len do emit (Buffer.nth out (Buffer.length out - d)) done;
        go ()
      end in
    go () in
  let fixed = lazy (build ~fixed:true (Array.init 288 (fun i -> if i < 144 then 8 else if i < 256 then 9
                                                    else if i < 280 then 7 else 8)),
                    build ~fixed:true (Array.make 30 5)) in
  let order = [|16;17;18;0;8;7;9;6;10;5;11;4;12;3;13;2;14;1;15|] in
  let rec blocks () =
    let last = bits 1 in
    (match bits 2 with
     | 0 ->
       bitbuf := 0; bitcnt := 0;
       if !pos + 4 > n then bad ();
       let len = Char.code data.[!pos] lor (Char.code data.[!pos + 1] lsl 8) in
       let nlen = Char.code data.[!pos + 2] lor (Char.code data.[!pos + 3] lsl 8) in
       if len <> nlen lxor 0xFFFF || !pos + 4 + len > n then bad ();
       String.iter emit (String.sub data (!pos + 4) len);
       pos := !pos + 4 + len
     | 1 -> let lit, dist = Lazy.force fixed in codes lit dist
     | 2 ->
       let nlen = bits 5 + 257 in let ndist = bits 5 + 1 in let ncode = bits 4 + 4 in
       if nlen > 286 || ndist > 30 then bad ();
       let lengths = Array.make 19 0 in
       for i = 0 to ncode - 1 do lengths.(order.(i)) <- bits 3 done;
       let lencode = build ~lengths_code:true lengths in
       let all = Array.make (nlen + ndist) 0 in
       let i = ref 0 in
       while !i < nlen + ndist do
         let sym = decode lencode in
         if sym < 16 then (all.(!i) <- sym; incr i)
         else begin
           let prev, rep = match sym with
             | 16 -> if !i = 0 then bad (); all.(!i - 1), 3 + bits 2
             | 17 -> 0, 3 + bits 3
             | _ -> 0, 11 + bits 7 in
           if !i + rep > nlen + ndist then bad ();
           for _ = 1 to rep do all.(!i) <- prev; incr i done
         end
       done;
       if all.(256) = 0 then bad ();
       codes (build (Array.sub all 0 nlen)) (build (Array.sub all nlen ndist))
     | _ -> bad ());
    if last = 0 then blocks () in
  blocks ();
  bitbuf := 0; bitcnt := 0;
  if !pos + 4 <> n then bad ();
  let s = Buffer.contents out in
  let a = ref 1 and b = ref 0 in
  String.iter (fun c -> a := (!a + Char.code c) mod 65521; b := (!b + !a) mod 65521) s;
  let stored = (Char.code data.[!pos] lsl 24) lor (Char.code data.[!pos + 1] lsl 16)
               lor (Char.code data.[!pos + 2] lsl 8) lor Char.code data.[!pos + 3] in
  if stored <> (!b lsl 16) lor !a then bad ();
  s

(* The array at o.key: base64, zlib, exactly count bytes. *)
let field where key count o =
  let packed = try base64 (str where key o) with Error _ -> error "%s.%s is not valid base64" where key in
  let raw = try inflate packed count with Error e -> error "%s.%s: %s" where key e in
  if String.length raw <> count then error "%s.%s holds %s bytes, expected %s" where key (grouped (String.length raw)) (grouped count);
  raw
