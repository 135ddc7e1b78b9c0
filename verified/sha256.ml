(* SHA-256 (trusted: the hash of the rules names the game on the verdict line). *)

let sha256 (msg : string) : string =
  let k = [|
    0x428a2f98;0x71374491;0xb5c0fbcf;0xe9b5dba5;0x3956c25b;0x59f111f1;0x923f82a4;0xab1c5ed5;
    0xd807aa98;0x12835b01;0x243185be;0x550c7dc3;0x72be5d74;0x80deb1fe;0x9bdc06a7;0xc19bf174;
    0xe49b69c1;0xefbe4786;0x0fc19dc6;0x240ca1cc;0x2de92c6f;0x4a7484aa;0x5cb0a9dc;0x76f988da;
    0x983e5152;0xa831c66d;0xb00327c8;0xbf597fc7;0xc6e00bf3;0xd5a79147;0x06ca6351;0x14292967;
    0x27b70a85;0x2e1b2138;0x4d2c6dfc;0x53380d13;0x650a7354;0x766a0abb;0x81c2c92e;0x92722c85;
    0xa2bfe8a1;0xa81a664b;0xc24b8b70;0xc76c51a3;0xd192e819;0xd6990624;0xf40e3585;0x106aa070;
    0x19a4c116;0x1e376c08;0x2748774c;0x34b0bcb5;0x391c0cb3;0x4ed8aa4a;0x5b9cca4f;0x682e6ff3;
    0x748f82ee;0x78a5636f;0x84c87814;0x8cc70208;0x90befffa;0xa4506ceb;0xbef9a3f7;0xc67178f2 |] in
  let h = [| 0x6a09e667;0xbb67ae85;0x3c6ef372;0xa54ff53a;0x510e527f;0x9b05688c;0x1f83d9ab;0x5be0cd19 |] in
  let m32 = 0xFFFFFFFF in
  let rotr x r = ((x lsr r) lor (x lsl (32 - r))) land m32 in
  let len = String.length msg in
  let padded = Bytes.make ((len + 9 + 63) / 64 * 64) '\000' in
  Bytes.blit_string msg 0 padded 0 len;
  Bytes.set padded len '\x80';
  let total = Bytes.length padded in
  for i = 0 to 7 do Bytes.set padded (total - 1 - i) (Char.chr (((len * 8) lsr (8 * i)) land 255)) done;
  let w = Array.make 64 0 in
  for block = 0 to total / 64 - 1 do
    for t = 0 to 15 do
      w.(t) <- Int32.to_int (Bytes.get_int32_be padded (64 * block + 4 * t)) land m32
    done;
    for t = 16 to 63 do
      let s0 = rotr w.(t - 15) 7 lxor rotr w.(t - 15) 18 lxor (w.(t - 15) lsr 3) in
      let s1 = rotr w.(t - 2) 17 lxor rotr w.(t - 2) 19 lxor (w.(t - 2) lsr 10) in
      w.(t) <- (w.(t - 16) + s0 + w.(t - 7) + s1) land m32
    done;
    let v = Array.copy h in
    for t = 0 to 63 do
      let s1 = rotr v.(4) 6 lxor rotr v.(4) 11 lxor rotr v.(4) 25 in
      let ch = (v.(4) land v.(5)) lxor ((lnot v.(4)) land m32 land v.(6)) in
      let t1 = (v.(7) + s1 + ch + k.(t) + w.(t)) land m32 in
      let s0 = rotr v.(0) 2 lxor rotr v.(0) 13 lxor rotr v.(0) 22 in
      let maj = (v.(0) land v.(1)) lxor (v.(0) land v.(2)) lxor (v.(1) land v.(2)) in
      let t2 = (s0 + maj) land m32 in
      v.(7) <- v.(6); v.(6) <- v.(5); v.(5) <- v.(4); v.(4) <- (v.(3) + t1) land m32;
      v.(3) <- v.(2); v.(2) <- v.(1); v.(1) <- v.(0); v.(0) <- (t1 + t2) land m32
    done;
    Array.iteri (fun i x -> h.(i) <- (h.(i) + x) land m32) v
  done;
  String.concat "" (Array.to_list (Array.map (Printf.sprintf "%08x") h))
