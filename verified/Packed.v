(** Boards packed for the set of positions a proof tree reaches (Positional.v): five cells as one
    value of a type with 3^5 = 243 constant constructors, which extraction turns into an OCaml
    variant of constant constructors, held in one machine word, not a pointer; a packed board holds 25 cells
    in one block of six words (a 5x5 board: 56 bytes, where the board as a list takes 600). Nothing
    here is trusted beyond the extraction of inductive types: [decode_encode] proves that a packed board gives
    back the board it was made from.

    [F i] is the five cells [a b c d e] with [i = 81a + 27b + 9c + 3d + e], Empty = 0, Cross = 1,
    Nought = 2 (so the order of the [F i] is the lexicographic order of the cells); [pack5] and
    [unpack5] list all 243 of them. *)

From Coq Require Import List Bool Arith Lia.
Import ListNotations.
From Verified Require Import Rules.

Inductive five :=
  | F0 | F1 | F2 | F3 | F4 | F5 | F6 | F7 | F8 | F9 | F10 | F11
  | F12 | F13 | F14 | F15 | F16 | F17 | F18 | F19 | F20 | F21 | F22 | F23
  | F24 | F25 | F26 | F27 | F28 | F29 | F30 | F31 | F32 | F33 | F34 | F35
  | F36 | F37 | F38 | F39 | F40 | F41 | F42 | F43 | F44 | F45 | F46 | F47
  | F48 | F49 | F50 | F51 | F52 | F53 | F54 | F55 | F56 | F57 | F58 | F59
  | F60 | F61 | F62 | F63 | F64 | F65 | F66 | F67 | F68 | F69 | F70 | F71
  | F72 | F73 | F74 | F75 | F76 | F77 | F78 | F79 | F80 | F81 | F82 | F83
  | F84 | F85 | F86 | F87 | F88 | F89 | F90 | F91 | F92 | F93 | F94 | F95
  | F96 | F97 | F98 | F99 | F100 | F101 | F102 | F103 | F104 | F105 | F106 | F107
  | F108 | F109 | F110 | F111 | F112 | F113 | F114 | F115 | F116 | F117 | F118 | F119
  | F120 | F121 | F122 | F123 | F124 | F125 | F126 | F127 | F128 | F129 | F130 | F131
  | F132 | F133 | F134 | F135 | F136 | F137 | F138 | F139 | F140 | F141 | F142 | F143
  | F144 | F145 | F146 | F147 | F148 | F149 | F150 | F151 | F152 | F153 | F154 | F155
  | F156 | F157 | F158 | F159 | F160 | F161 | F162 | F163 | F164 | F165 | F166 | F167
  | F168 | F169 | F170 | F171 | F172 | F173 | F174 | F175 | F176 | F177 | F178 | F179
  | F180 | F181 | F182 | F183 | F184 | F185 | F186 | F187 | F188 | F189 | F190 | F191
  | F192 | F193 | F194 | F195 | F196 | F197 | F198 | F199 | F200 | F201 | F202 | F203
  | F204 | F205 | F206 | F207 | F208 | F209 | F210 | F211 | F212 | F213 | F214 | F215
  | F216 | F217 | F218 | F219 | F220 | F221 | F222 | F223 | F224 | F225 | F226 | F227
  | F228 | F229 | F230 | F231 | F232 | F233 | F234 | F235 | F236 | F237 | F238 | F239
  | F240 | F241 | F242.

Definition pack5 (a b c d e : mark) : five :=
  match a, b, c, d, e with
  | Empty, Empty, Empty, Empty, Empty => F0
  | Empty, Empty, Empty, Empty, Cross => F1
  | Empty, Empty, Empty, Empty, Nought => F2
  | Empty, Empty, Empty, Cross, Empty => F3
  | Empty, Empty, Empty, Cross, Cross => F4
  | Empty, Empty, Empty, Cross, Nought => F5
  | Empty, Empty, Empty, Nought, Empty => F6
  | Empty, Empty, Empty, Nought, Cross => F7
  | Empty, Empty, Empty, Nought, Nought => F8
  | Empty, Empty, Cross, Empty, Empty => F9
  | Empty, Empty, Cross, Empty, Cross => F10
  | Empty, Empty, Cross, Empty, Nought => F11
  | Empty, Empty, Cross, Cross, Empty => F12
  | Empty, Empty, Cross, Cross, Cross => F13
  | Empty, Empty, Cross, Cross, Nought => F14
  | Empty, Empty, Cross, Nought, Empty => F15
  | Empty, Empty, Cross, Nought, Cross => F16
  | Empty, Empty, Cross, Nought, Nought => F17
  | Empty, Empty, Nought, Empty, Empty => F18
  | Empty, Empty, Nought, Empty, Cross => F19
  | Empty, Empty, Nought, Empty, Nought => F20
  | Empty, Empty, Nought, Cross, Empty => F21
  | Empty, Empty, Nought, Cross, Cross => F22
  | Empty, Empty, Nought, Cross, Nought => F23
  | Empty, Empty, Nought, Nought, Empty => F24
  | Empty, Empty, Nought, Nought, Cross => F25
  | Empty, Empty, Nought, Nought, Nought => F26
  | Empty, Cross, Empty, Empty, Empty => F27
  | Empty, Cross, Empty, Empty, Cross => F28
  | Empty, Cross, Empty, Empty, Nought => F29
  | Empty, Cross, Empty, Cross, Empty => F30
  | Empty, Cross, Empty, Cross, Cross => F31
  | Empty, Cross, Empty, Cross, Nought => F32
  | Empty, Cross, Empty, Nought, Empty => F33
  | Empty, Cross, Empty, Nought, Cross => F34
  | Empty, Cross, Empty, Nought, Nought => F35
  | Empty, Cross, Cross, Empty, Empty => F36
  | Empty, Cross, Cross, Empty, Cross => F37
  | Empty, Cross, Cross, Empty, Nought => F38
  | Empty, Cross, Cross, Cross, Empty => F39
  | Empty, Cross, Cross, Cross, Cross => F40
  | Empty, Cross, Cross, Cross, Nought => F41
  | Empty, Cross, Cross, Nought, Empty => F42
  | Empty, Cross, Cross, Nought, Cross => F43
  | Empty, Cross, Cross, Nought, Nought => F44
  | Empty, Cross, Nought, Empty, Empty => F45
  | Empty, Cross, Nought, Empty, Cross => F46
  | Empty, Cross, Nought, Empty, Nought => F47
  | Empty, Cross, Nought, Cross, Empty => F48
  | Empty, Cross, Nought, Cross, Cross => F49
  | Empty, Cross, Nought, Cross, Nought => F50
  | Empty, Cross, Nought, Nought, Empty => F51
  | Empty, Cross, Nought, Nought, Cross => F52
  | Empty, Cross, Nought, Nought, Nought => F53
  | Empty, Nought, Empty, Empty, Empty => F54
  | Empty, Nought, Empty, Empty, Cross => F55
  | Empty, Nought, Empty, Empty, Nought => F56
  | Empty, Nought, Empty, Cross, Empty => F57
  | Empty, Nought, Empty, Cross, Cross => F58
  | Empty, Nought, Empty, Cross, Nought => F59
  | Empty, Nought, Empty, Nought, Empty => F60
  | Empty, Nought, Empty, Nought, Cross => F61
  | Empty, Nought, Empty, Nought, Nought => F62
  | Empty, Nought, Cross, Empty, Empty => F63
  | Empty, Nought, Cross, Empty, Cross => F64
  | Empty, Nought, Cross, Empty, Nought => F65
  | Empty, Nought, Cross, Cross, Empty => F66
  | Empty, Nought, Cross, Cross, Cross => F67
  | Empty, Nought, Cross, Cross, Nought => F68
  | Empty, Nought, Cross, Nought, Empty => F69
  | Empty, Nought, Cross, Nought, Cross => F70
  | Empty, Nought, Cross, Nought, Nought => F71
  | Empty, Nought, Nought, Empty, Empty => F72
  | Empty, Nought, Nought, Empty, Cross => F73
  | Empty, Nought, Nought, Empty, Nought => F74
  | Empty, Nought, Nought, Cross, Empty => F75
  | Empty, Nought, Nought, Cross, Cross => F76
  | Empty, Nought, Nought, Cross, Nought => F77
  | Empty, Nought, Nought, Nought, Empty => F78
  | Empty, Nought, Nought, Nought, Cross => F79
  | Empty, Nought, Nought, Nought, Nought => F80
  | Cross, Empty, Empty, Empty, Empty => F81
  | Cross, Empty, Empty, Empty, Cross => F82
  | Cross, Empty, Empty, Empty, Nought => F83
  | Cross, Empty, Empty, Cross, Empty => F84
  | Cross, Empty, Empty, Cross, Cross => F85
  | Cross, Empty, Empty, Cross, Nought => F86
  | Cross, Empty, Empty, Nought, Empty => F87
  | Cross, Empty, Empty, Nought, Cross => F88
  | Cross, Empty, Empty, Nought, Nought => F89
  | Cross, Empty, Cross, Empty, Empty => F90
  | Cross, Empty, Cross, Empty, Cross => F91
  | Cross, Empty, Cross, Empty, Nought => F92
  | Cross, Empty, Cross, Cross, Empty => F93
  | Cross, Empty, Cross, Cross, Cross => F94
  | Cross, Empty, Cross, Cross, Nought => F95
  | Cross, Empty, Cross, Nought, Empty => F96
  | Cross, Empty, Cross, Nought, Cross => F97
  | Cross, Empty, Cross, Nought, Nought => F98
  | Cross, Empty, Nought, Empty, Empty => F99
  | Cross, Empty, Nought, Empty, Cross => F100
  | Cross, Empty, Nought, Empty, Nought => F101
  | Cross, Empty, Nought, Cross, Empty => F102
  | Cross, Empty, Nought, Cross, Cross => F103
  | Cross, Empty, Nought, Cross, Nought => F104
  | Cross, Empty, Nought, Nought, Empty => F105
  | Cross, Empty, Nought, Nought, Cross => F106
  | Cross, Empty, Nought, Nought, Nought => F107
  | Cross, Cross, Empty, Empty, Empty => F108
  | Cross, Cross, Empty, Empty, Cross => F109
  | Cross, Cross, Empty, Empty, Nought => F110
  | Cross, Cross, Empty, Cross, Empty => F111
  | Cross, Cross, Empty, Cross, Cross => F112
  | Cross, Cross, Empty, Cross, Nought => F113
  | Cross, Cross, Empty, Nought, Empty => F114
  | Cross, Cross, Empty, Nought, Cross => F115
  | Cross, Cross, Empty, Nought, Nought => F116
  | Cross, Cross, Cross, Empty, Empty => F117
  | Cross, Cross, Cross, Empty, Cross => F118
  | Cross, Cross, Cross, Empty, Nought => F119
  | Cross, Cross, Cross, Cross, Empty => F120
  | Cross, Cross, Cross, Cross, Cross => F121
  | Cross, Cross, Cross, Cross, Nought => F122
  | Cross, Cross, Cross, Nought, Empty => F123
  | Cross, Cross, Cross, Nought, Cross => F124
  | Cross, Cross, Cross, Nought, Nought => F125
  | Cross, Cross, Nought, Empty, Empty => F126
  | Cross, Cross, Nought, Empty, Cross => F127
  | Cross, Cross, Nought, Empty, Nought => F128
  | Cross, Cross, Nought, Cross, Empty => F129
  | Cross, Cross, Nought, Cross, Cross => F130
  | Cross, Cross, Nought, Cross, Nought => F131
  | Cross, Cross, Nought, Nought, Empty => F132
  | Cross, Cross, Nought, Nought, Cross => F133
  | Cross, Cross, Nought, Nought, Nought => F134
  | Cross, Nought, Empty, Empty, Empty => F135
  | Cross, Nought, Empty, Empty, Cross => F136
  | Cross, Nought, Empty, Empty, Nought => F137
  | Cross, Nought, Empty, Cross, Empty => F138
  | Cross, Nought, Empty, Cross, Cross => F139
  | Cross, Nought, Empty, Cross, Nought => F140
  | Cross, Nought, Empty, Nought, Empty => F141
  | Cross, Nought, Empty, Nought, Cross => F142
  | Cross, Nought, Empty, Nought, Nought => F143
  | Cross, Nought, Cross, Empty, Empty => F144
  | Cross, Nought, Cross, Empty, Cross => F145
  | Cross, Nought, Cross, Empty, Nought => F146
  | Cross, Nought, Cross, Cross, Empty => F147
  | Cross, Nought, Cross, Cross, Cross => F148
  | Cross, Nought, Cross, Cross, Nought => F149
  | Cross, Nought, Cross, Nought, Empty => F150
  | Cross, Nought, Cross, Nought, Cross => F151
  | Cross, Nought, Cross, Nought, Nought => F152
  | Cross, Nought, Nought, Empty, Empty => F153
  | Cross, Nought, Nought, Empty, Cross => F154
  | Cross, Nought, Nought, Empty, Nought => F155
  | Cross, Nought, Nought, Cross, Empty => F156
  | Cross, Nought, Nought, Cross, Cross => F157
  | Cross, Nought, Nought, Cross, Nought => F158
  | Cross, Nought, Nought, Nought, Empty => F159
  | Cross, Nought, Nought, Nought, Cross => F160
  | Cross, Nought, Nought, Nought, Nought => F161
  | Nought, Empty, Empty, Empty, Empty => F162
  | Nought, Empty, Empty, Empty, Cross => F163
  | Nought, Empty, Empty, Empty, Nought => F164
  | Nought, Empty, Empty, Cross, Empty => F165
  | Nought, Empty, Empty, Cross, Cross => F166
  | Nought, Empty, Empty, Cross, Nought => F167
  | Nought, Empty, Empty, Nought, Empty => F168
  | Nought, Empty, Empty, Nought, Cross => F169
  | Nought, Empty, Empty, Nought, Nought => F170
  | Nought, Empty, Cross, Empty, Empty => F171
  | Nought, Empty, Cross, Empty, Cross => F172
  | Nought, Empty, Cross, Empty, Nought => F173
  | Nought, Empty, Cross, Cross, Empty => F174
  | Nought, Empty, Cross, Cross, Cross => F175
  | Nought, Empty, Cross, Cross, Nought => F176
  | Nought, Empty, Cross, Nought, Empty => F177
  | Nought, Empty, Cross, Nought, Cross => F178
  | Nought, Empty, Cross, Nought, Nought => F179
  | Nought, Empty, Nought, Empty, Empty => F180
  | Nought, Empty, Nought, Empty, Cross => F181
  | Nought, Empty, Nought, Empty, Nought => F182
  | Nought, Empty, Nought, Cross, Empty => F183
  | Nought, Empty, Nought, Cross, Cross => F184
  | Nought, Empty, Nought, Cross, Nought => F185
  | Nought, Empty, Nought, Nought, Empty => F186
  | Nought, Empty, Nought, Nought, Cross => F187
  | Nought, Empty, Nought, Nought, Nought => F188
  | Nought, Cross, Empty, Empty, Empty => F189
  | Nought, Cross, Empty, Empty, Cross => F190
  | Nought, Cross, Empty, Empty, Nought => F191
  | Nought, Cross, Empty, Cross, Empty => F192
  | Nought, Cross, Empty, Cross, Cross => F193
  | Nought, Cross, Empty, Cross, Nought => F194
  | Nought, Cross, Empty, Nought, Empty => F195
  | Nought, Cross, Empty, Nought, Cross => F196
  | Nought, Cross, Empty, Nought, Nought => F197
  | Nought, Cross, Cross, Empty, Empty => F198
  | Nought, Cross, Cross, Empty, Cross => F199
  | Nought, Cross, Cross, Empty, Nought => F200
  | Nought, Cross, Cross, Cross, Empty => F201
  | Nought, Cross, Cross, Cross, Cross => F202
  | Nought, Cross, Cross, Cross, Nought => F203
  | Nought, Cross, Cross, Nought, Empty => F204
  | Nought, Cross, Cross, Nought, Cross => F205
  | Nought, Cross, Cross, Nought, Nought => F206
  | Nought, Cross, Nought, Empty, Empty => F207
  | Nought, Cross, Nought, Empty, Cross => F208
  | Nought, Cross, Nought, Empty, Nought => F209
  | Nought, Cross, Nought, Cross, Empty => F210
  | Nought, Cross, Nought, Cross, Cross => F211
  | Nought, Cross, Nought, Cross, Nought => F212
  | Nought, Cross, Nought, Nought, Empty => F213
  | Nought, Cross, Nought, Nought, Cross => F214
  | Nought, Cross, Nought, Nought, Nought => F215
  | Nought, Nought, Empty, Empty, Empty => F216
  | Nought, Nought, Empty, Empty, Cross => F217
  | Nought, Nought, Empty, Empty, Nought => F218
  | Nought, Nought, Empty, Cross, Empty => F219
  | Nought, Nought, Empty, Cross, Cross => F220
  | Nought, Nought, Empty, Cross, Nought => F221
  | Nought, Nought, Empty, Nought, Empty => F222
  | Nought, Nought, Empty, Nought, Cross => F223
  | Nought, Nought, Empty, Nought, Nought => F224
  | Nought, Nought, Cross, Empty, Empty => F225
  | Nought, Nought, Cross, Empty, Cross => F226
  | Nought, Nought, Cross, Empty, Nought => F227
  | Nought, Nought, Cross, Cross, Empty => F228
  | Nought, Nought, Cross, Cross, Cross => F229
  | Nought, Nought, Cross, Cross, Nought => F230
  | Nought, Nought, Cross, Nought, Empty => F231
  | Nought, Nought, Cross, Nought, Cross => F232
  | Nought, Nought, Cross, Nought, Nought => F233
  | Nought, Nought, Nought, Empty, Empty => F234
  | Nought, Nought, Nought, Empty, Cross => F235
  | Nought, Nought, Nought, Empty, Nought => F236
  | Nought, Nought, Nought, Cross, Empty => F237
  | Nought, Nought, Nought, Cross, Cross => F238
  | Nought, Nought, Nought, Cross, Nought => F239
  | Nought, Nought, Nought, Nought, Empty => F240
  | Nought, Nought, Nought, Nought, Cross => F241
  | Nought, Nought, Nought, Nought, Nought => F242
  end.

Definition unpack5 (f : five) : list mark :=
  match f with
  | F0 => [Empty; Empty; Empty; Empty; Empty]
  | F1 => [Empty; Empty; Empty; Empty; Cross]
  | F2 => [Empty; Empty; Empty; Empty; Nought]
  | F3 => [Empty; Empty; Empty; Cross; Empty]
  | F4 => [Empty; Empty; Empty; Cross; Cross]
  | F5 => [Empty; Empty; Empty; Cross; Nought]
  | F6 => [Empty; Empty; Empty; Nought; Empty]
  | F7 => [Empty; Empty; Empty; Nought; Cross]
  | F8 => [Empty; Empty; Empty; Nought; Nought]
  | F9 => [Empty; Empty; Cross; Empty; Empty]
  | F10 => [Empty; Empty; Cross; Empty; Cross]
  | F11 => [Empty; Empty; Cross; Empty; Nought]
  | F12 => [Empty; Empty; Cross; Cross; Empty]
  | F13 => [Empty; Empty; Cross; Cross; Cross]
  | F14 => [Empty; Empty; Cross; Cross; Nought]
  | F15 => [Empty; Empty; Cross; Nought; Empty]
  | F16 => [Empty; Empty; Cross; Nought; Cross]
  | F17 => [Empty; Empty; Cross; Nought; Nought]
  | F18 => [Empty; Empty; Nought; Empty; Empty]
  | F19 => [Empty; Empty; Nought; Empty; Cross]
  | F20 => [Empty; Empty; Nought; Empty; Nought]
  | F21 => [Empty; Empty; Nought; Cross; Empty]
  | F22 => [Empty; Empty; Nought; Cross; Cross]
  | F23 => [Empty; Empty; Nought; Cross; Nought]
  | F24 => [Empty; Empty; Nought; Nought; Empty]
  | F25 => [Empty; Empty; Nought; Nought; Cross]
  | F26 => [Empty; Empty; Nought; Nought; Nought]
  | F27 => [Empty; Cross; Empty; Empty; Empty]
  | F28 => [Empty; Cross; Empty; Empty; Cross]
  | F29 => [Empty; Cross; Empty; Empty; Nought]
  | F30 => [Empty; Cross; Empty; Cross; Empty]
  | F31 => [Empty; Cross; Empty; Cross; Cross]
  | F32 => [Empty; Cross; Empty; Cross; Nought]
  | F33 => [Empty; Cross; Empty; Nought; Empty]
  | F34 => [Empty; Cross; Empty; Nought; Cross]
  | F35 => [Empty; Cross; Empty; Nought; Nought]
  | F36 => [Empty; Cross; Cross; Empty; Empty]
  | F37 => [Empty; Cross; Cross; Empty; Cross]
  | F38 => [Empty; Cross; Cross; Empty; Nought]
  | F39 => [Empty; Cross; Cross; Cross; Empty]
  | F40 => [Empty; Cross; Cross; Cross; Cross]
  | F41 => [Empty; Cross; Cross; Cross; Nought]
  | F42 => [Empty; Cross; Cross; Nought; Empty]
  | F43 => [Empty; Cross; Cross; Nought; Cross]
  | F44 => [Empty; Cross; Cross; Nought; Nought]
  | F45 => [Empty; Cross; Nought; Empty; Empty]
  | F46 => [Empty; Cross; Nought; Empty; Cross]
  | F47 => [Empty; Cross; Nought; Empty; Nought]
  | F48 => [Empty; Cross; Nought; Cross; Empty]
  | F49 => [Empty; Cross; Nought; Cross; Cross]
  | F50 => [Empty; Cross; Nought; Cross; Nought]
  | F51 => [Empty; Cross; Nought; Nought; Empty]
  | F52 => [Empty; Cross; Nought; Nought; Cross]
  | F53 => [Empty; Cross; Nought; Nought; Nought]
  | F54 => [Empty; Nought; Empty; Empty; Empty]
  | F55 => [Empty; Nought; Empty; Empty; Cross]
  | F56 => [Empty; Nought; Empty; Empty; Nought]
  | F57 => [Empty; Nought; Empty; Cross; Empty]
  | F58 => [Empty; Nought; Empty; Cross; Cross]
  | F59 => [Empty; Nought; Empty; Cross; Nought]
  | F60 => [Empty; Nought; Empty; Nought; Empty]
  | F61 => [Empty; Nought; Empty; Nought; Cross]
  | F62 => [Empty; Nought; Empty; Nought; Nought]
  | F63 => [Empty; Nought; Cross; Empty; Empty]
  | F64 => [Empty; Nought; Cross; Empty; Cross]
  | F65 => [Empty; Nought; Cross; Empty; Nought]
  | F66 => [Empty; Nought; Cross; Cross; Empty]
  | F67 => [Empty; Nought; Cross; Cross; Cross]
  | F68 => [Empty; Nought; Cross; Cross; Nought]
  | F69 => [Empty; Nought; Cross; Nought; Empty]
  | F70 => [Empty; Nought; Cross; Nought; Cross]
  | F71 => [Empty; Nought; Cross; Nought; Nought]
  | F72 => [Empty; Nought; Nought; Empty; Empty]
  | F73 => [Empty; Nought; Nought; Empty; Cross]
  | F74 => [Empty; Nought; Nought; Empty; Nought]
  | F75 => [Empty; Nought; Nought; Cross; Empty]
  | F76 => [Empty; Nought; Nought; Cross; Cross]
  | F77 => [Empty; Nought; Nought; Cross; Nought]
  | F78 => [Empty; Nought; Nought; Nought; Empty]
  | F79 => [Empty; Nought; Nought; Nought; Cross]
  | F80 => [Empty; Nought; Nought; Nought; Nought]
  | F81 => [Cross; Empty; Empty; Empty; Empty]
  | F82 => [Cross; Empty; Empty; Empty; Cross]
  | F83 => [Cross; Empty; Empty; Empty; Nought]
  | F84 => [Cross; Empty; Empty; Cross; Empty]
  | F85 => [Cross; Empty; Empty; Cross; Cross]
  | F86 => [Cross; Empty; Empty; Cross; Nought]
  | F87 => [Cross; Empty; Empty; Nought; Empty]
  | F88 => [Cross; Empty; Empty; Nought; Cross]
  | F89 => [Cross; Empty; Empty; Nought; Nought]
  | F90 => [Cross; Empty; Cross; Empty; Empty]
  | F91 => [Cross; Empty; Cross; Empty; Cross]
  | F92 => [Cross; Empty; Cross; Empty; Nought]
  | F93 => [Cross; Empty; Cross; Cross; Empty]
  | F94 => [Cross; Empty; Cross; Cross; Cross]
  | F95 => [Cross; Empty; Cross; Cross; Nought]
  | F96 => [Cross; Empty; Cross; Nought; Empty]
  | F97 => [Cross; Empty; Cross; Nought; Cross]
  | F98 => [Cross; Empty; Cross; Nought; Nought]
  | F99 => [Cross; Empty; Nought; Empty; Empty]
  | F100 => [Cross; Empty; Nought; Empty; Cross]
  | F101 => [Cross; Empty; Nought; Empty; Nought]
  | F102 => [Cross; Empty; Nought; Cross; Empty]
  | F103 => [Cross; Empty; Nought; Cross; Cross]
  | F104 => [Cross; Empty; Nought; Cross; Nought]
  | F105 => [Cross; Empty; Nought; Nought; Empty]
  | F106 => [Cross; Empty; Nought; Nought; Cross]
  | F107 => [Cross; Empty; Nought; Nought; Nought]
  | F108 => [Cross; Cross; Empty; Empty; Empty]
  | F109 => [Cross; Cross; Empty; Empty; Cross]
  | F110 => [Cross; Cross; Empty; Empty; Nought]
  | F111 => [Cross; Cross; Empty; Cross; Empty]
  | F112 => [Cross; Cross; Empty; Cross; Cross]
  | F113 => [Cross; Cross; Empty; Cross; Nought]
  | F114 => [Cross; Cross; Empty; Nought; Empty]
  | F115 => [Cross; Cross; Empty; Nought; Cross]
  | F116 => [Cross; Cross; Empty; Nought; Nought]
  | F117 => [Cross; Cross; Cross; Empty; Empty]
  | F118 => [Cross; Cross; Cross; Empty; Cross]
  | F119 => [Cross; Cross; Cross; Empty; Nought]
  | F120 => [Cross; Cross; Cross; Cross; Empty]
  | F121 => [Cross; Cross; Cross; Cross; Cross]
  | F122 => [Cross; Cross; Cross; Cross; Nought]
  | F123 => [Cross; Cross; Cross; Nought; Empty]
  | F124 => [Cross; Cross; Cross; Nought; Cross]
  | F125 => [Cross; Cross; Cross; Nought; Nought]
  | F126 => [Cross; Cross; Nought; Empty; Empty]
  | F127 => [Cross; Cross; Nought; Empty; Cross]
  | F128 => [Cross; Cross; Nought; Empty; Nought]
  | F129 => [Cross; Cross; Nought; Cross; Empty]
  | F130 => [Cross; Cross; Nought; Cross; Cross]
  | F131 => [Cross; Cross; Nought; Cross; Nought]
  | F132 => [Cross; Cross; Nought; Nought; Empty]
  | F133 => [Cross; Cross; Nought; Nought; Cross]
  | F134 => [Cross; Cross; Nought; Nought; Nought]
  | F135 => [Cross; Nought; Empty; Empty; Empty]
  | F136 => [Cross; Nought; Empty; Empty; Cross]
  | F137 => [Cross; Nought; Empty; Empty; Nought]
  | F138 => [Cross; Nought; Empty; Cross; Empty]
  | F139 => [Cross; Nought; Empty; Cross; Cross]
  | F140 => [Cross; Nought; Empty; Cross; Nought]
  | F141 => [Cross; Nought; Empty; Nought; Empty]
  | F142 => [Cross; Nought; Empty; Nought; Cross]
  | F143 => [Cross; Nought; Empty; Nought; Nought]
  | F144 => [Cross; Nought; Cross; Empty; Empty]
  | F145 => [Cross; Nought; Cross; Empty; Cross]
  | F146 => [Cross; Nought; Cross; Empty; Nought]
  | F147 => [Cross; Nought; Cross; Cross; Empty]
  | F148 => [Cross; Nought; Cross; Cross; Cross]
  | F149 => [Cross; Nought; Cross; Cross; Nought]
  | F150 => [Cross; Nought; Cross; Nought; Empty]
  | F151 => [Cross; Nought; Cross; Nought; Cross]
  | F152 => [Cross; Nought; Cross; Nought; Nought]
  | F153 => [Cross; Nought; Nought; Empty; Empty]
  | F154 => [Cross; Nought; Nought; Empty; Cross]
  | F155 => [Cross; Nought; Nought; Empty; Nought]
  | F156 => [Cross; Nought; Nought; Cross; Empty]
  | F157 => [Cross; Nought; Nought; Cross; Cross]
  | F158 => [Cross; Nought; Nought; Cross; Nought]
  | F159 => [Cross; Nought; Nought; Nought; Empty]
  | F160 => [Cross; Nought; Nought; Nought; Cross]
  | F161 => [Cross; Nought; Nought; Nought; Nought]
  | F162 => [Nought; Empty; Empty; Empty; Empty]
  | F163 => [Nought; Empty; Empty; Empty; Cross]
  | F164 => [Nought; Empty; Empty; Empty; Nought]
  | F165 => [Nought; Empty; Empty; Cross; Empty]
  | F166 => [Nought; Empty; Empty; Cross; Cross]
  | F167 => [Nought; Empty; Empty; Cross; Nought]
  | F168 => [Nought; Empty; Empty; Nought; Empty]
  | F169 => [Nought; Empty; Empty; Nought; Cross]
  | F170 => [Nought; Empty; Empty; Nought; Nought]
  | F171 => [Nought; Empty; Cross; Empty; Empty]
  | F172 => [Nought; Empty; Cross; Empty; Cross]
  | F173 => [Nought; Empty; Cross; Empty; Nought]
  | F174 => [Nought; Empty; Cross; Cross; Empty]
  | F175 => [Nought; Empty; Cross; Cross; Cross]
  | F176 => [Nought; Empty; Cross; Cross; Nought]
  | F177 => [Nought; Empty; Cross; Nought; Empty]
  | F178 => [Nought; Empty; Cross; Nought; Cross]
  | F179 => [Nought; Empty; Cross; Nought; Nought]
  | F180 => [Nought; Empty; Nought; Empty; Empty]
  | F181 => [Nought; Empty; Nought; Empty; Cross]
  | F182 => [Nought; Empty; Nought; Empty; Nought]
  | F183 => [Nought; Empty; Nought; Cross; Empty]
  | F184 => [Nought; Empty; Nought; Cross; Cross]
  | F185 => [Nought; Empty; Nought; Cross; Nought]
  | F186 => [Nought; Empty; Nought; Nought; Empty]
  | F187 => [Nought; Empty; Nought; Nought; Cross]
  | F188 => [Nought; Empty; Nought; Nought; Nought]
  | F189 => [Nought; Cross; Empty; Empty; Empty]
  | F190 => [Nought; Cross; Empty; Empty; Cross]
  | F191 => [Nought; Cross; Empty; Empty; Nought]
  | F192 => [Nought; Cross; Empty; Cross; Empty]
  | F193 => [Nought; Cross; Empty; Cross; Cross]
  | F194 => [Nought; Cross; Empty; Cross; Nought]
  | F195 => [Nought; Cross; Empty; Nought; Empty]
  | F196 => [Nought; Cross; Empty; Nought; Cross]
  | F197 => [Nought; Cross; Empty; Nought; Nought]
  | F198 => [Nought; Cross; Cross; Empty; Empty]
  | F199 => [Nought; Cross; Cross; Empty; Cross]
  | F200 => [Nought; Cross; Cross; Empty; Nought]
  | F201 => [Nought; Cross; Cross; Cross; Empty]
  | F202 => [Nought; Cross; Cross; Cross; Cross]
  | F203 => [Nought; Cross; Cross; Cross; Nought]
  | F204 => [Nought; Cross; Cross; Nought; Empty]
  | F205 => [Nought; Cross; Cross; Nought; Cross]
  | F206 => [Nought; Cross; Cross; Nought; Nought]
  | F207 => [Nought; Cross; Nought; Empty; Empty]
  | F208 => [Nought; Cross; Nought; Empty; Cross]
  | F209 => [Nought; Cross; Nought; Empty; Nought]
  | F210 => [Nought; Cross; Nought; Cross; Empty]
  | F211 => [Nought; Cross; Nought; Cross; Cross]
  | F212 => [Nought; Cross; Nought; Cross; Nought]
  | F213 => [Nought; Cross; Nought; Nought; Empty]
  | F214 => [Nought; Cross; Nought; Nought; Cross]
  | F215 => [Nought; Cross; Nought; Nought; Nought]
  | F216 => [Nought; Nought; Empty; Empty; Empty]
  | F217 => [Nought; Nought; Empty; Empty; Cross]
  | F218 => [Nought; Nought; Empty; Empty; Nought]
  | F219 => [Nought; Nought; Empty; Cross; Empty]
  | F220 => [Nought; Nought; Empty; Cross; Cross]
  | F221 => [Nought; Nought; Empty; Cross; Nought]
  | F222 => [Nought; Nought; Empty; Nought; Empty]
  | F223 => [Nought; Nought; Empty; Nought; Cross]
  | F224 => [Nought; Nought; Empty; Nought; Nought]
  | F225 => [Nought; Nought; Cross; Empty; Empty]
  | F226 => [Nought; Nought; Cross; Empty; Cross]
  | F227 => [Nought; Nought; Cross; Empty; Nought]
  | F228 => [Nought; Nought; Cross; Cross; Empty]
  | F229 => [Nought; Nought; Cross; Cross; Cross]
  | F230 => [Nought; Nought; Cross; Cross; Nought]
  | F231 => [Nought; Nought; Cross; Nought; Empty]
  | F232 => [Nought; Nought; Cross; Nought; Cross]
  | F233 => [Nought; Nought; Cross; Nought; Nought]
  | F234 => [Nought; Nought; Nought; Empty; Empty]
  | F235 => [Nought; Nought; Nought; Empty; Cross]
  | F236 => [Nought; Nought; Nought; Empty; Nought]
  | F237 => [Nought; Nought; Nought; Cross; Empty]
  | F238 => [Nought; Nought; Nought; Cross; Cross]
  | F239 => [Nought; Nought; Nought; Cross; Nought]
  | F240 => [Nought; Nought; Nought; Nought; Empty]
  | F241 => [Nought; Nought; Nought; Nought; Cross]
  | F242 => [Nought; Nought; Nought; Nought; Nought]
  end.

(** A five from a list of five cells (any other list: [F0]; only lists of five are used). *)
Definition pack_list (l : list mark) : five :=
  match l with [a; b; c; d; e] => pack5 a b c d e | _ => F0 end.

(** The first five cells of a board and the rest, reading past its end as empty cells. *)
Definition take5 (b : board) : five * board :=
  match b with
  | a :: c :: d :: e :: f :: r => (pack5 a c d e f, r)
  | _ => (pack_list (b ++ repeat Empty (5 - length b)), [])
  end.

(** A packed board: 25 cells a block, the last block padded with empty cells. *)
Inductive packed := PEnd | P (a b c d e : five) (rest : packed).

Fixpoint encode_fuel (fuel : nat) (b : board) : packed :=
  match fuel, b with
  | O, _ | _, [] => PEnd
  | S f, _ =>
      let (x1, b) := take5 b in let (x2, b) := take5 b in let (x3, b) := take5 b in
      let (x4, b) := take5 b in let (x5, b) := take5 b in
      P x1 x2 x3 x4 x5 (encode_fuel f b)
  end.

Definition encode (b : board) : packed := encode_fuel (length b) b.

Fixpoint unpack (k : packed) : board :=
  match k with
  | PEnd => []
  | P a b c d e r => unpack5 a ++ unpack5 b ++ unpack5 c ++ unpack5 d ++ unpack5 e ++ unpack r
  end.

(** The board of [n] cells a packed board stands for. *)
Definition decode (n : nat) (k : packed) : board := firstn n (unpack k).

(** The order of keys: lexicographic, cell by cell, Empty < Cross < Nought; the driver builds the
    set's search tree in this order (if it did not, a search would miss and the check refuse). *)
Definition mark_compare (a b : mark) : comparison :=
  match a, b with
  | Empty, Empty | Cross, Cross | Nought, Nought => Eq
  | Empty, _ | Cross, Nought => Lt
  | _, _ => Gt
  end.

Fixpoint marks_compare (x y : list mark) : comparison :=
  match x, y with
  | [], [] => Eq
  | [], _ => Lt
  | _, [] => Gt
  | a :: x', b :: y' => match mark_compare a b with Eq => marks_compare x' y' | c => c end
  end.

Definition five_compare (a b : five) : comparison := marks_compare (unpack5 a) (unpack5 b).

Fixpoint packed_compare (k k' : packed) : comparison :=
  match k, k' with
  | PEnd, PEnd => Eq
  | PEnd, _ => Lt
  | _, PEnd => Gt
  | P a b c d e r, P a' b' c' d' e' r' =>
      match five_compare a a' with
      | Eq => match five_compare b b' with
        | Eq => match five_compare c c' with
          | Eq => match five_compare d d' with
            | Eq => match five_compare e e' with Eq => packed_compare r r' | o => o end
            | o => o end
          | o => o end
        | o => o end
      | o => o end
  end.

(* ---- proofs ---------------------------------------------------------------------------------- *)

Lemma pack_unpack : forall f, pack_list (unpack5 f) = f.
Proof. destruct f; reflexivity. Qed.

Lemma unpack_pack : forall a b c d e, unpack5 (pack5 a b c d e) = [a; b; c; d; e].
Proof. destruct a, b, c, d, e; reflexivity. Qed.

Lemma marks_compare_eq : forall x y, marks_compare x y = Eq -> x = y.
Proof.
  induction x as [|a x IH]; destruct y as [|b y]; simpl; try congruence.
  destruct a, b; simpl; try discriminate; intro H; rewrite (IH _ H); reflexivity.
Qed.

Lemma five_compare_eq : forall a b, five_compare a b = Eq -> a = b.
Proof.
  unfold five_compare. intros a b H. apply marks_compare_eq in H.
  rewrite <- (pack_unpack a), <- (pack_unpack b), H. reflexivity.
Qed.

Lemma packed_compare_eq : forall k k', packed_compare k k' = Eq -> k = k'.
Proof.
  induction k as [|a b c d e r IH]; destruct k' as [|a' b' c' d' e' r']; simpl; try congruence.
  destruct (five_compare a a') eqn:A; try discriminate.
  destruct (five_compare b b') eqn:B; try discriminate.
  destruct (five_compare c c') eqn:C; try discriminate.
  destruct (five_compare d d') eqn:D; try discriminate.
  destruct (five_compare e e') eqn:E; try discriminate.
  intro H. apply five_compare_eq in A, B, C, D, E. subst. rewrite (IH _ H). reflexivity.
Qed.

(** [l] starts with [b]. *)
Definition prefix (b l : board) : Prop := exists pad, l = b ++ pad.

Lemma take5_prefix : forall b x r l, take5 b = (x, r) -> prefix r l -> prefix b (unpack5 x ++ l).
Proof.
  intros b x r l T [pad ->].
  destruct b as [|a [|c [|d [|e [|f r']]]]]; cbn -[pack5] in T; injection T as <- <-;
    try rewrite unpack_pack; [exists (unpack5 F0 ++ pad); reflexivity|eexists; reflexivity ..|exists pad; reflexivity].
Qed.

Lemma take5_length : forall b x r, take5 b = (x, r) -> length r <= length b - 1 \/ r = [].
Proof.
  intros b x r T. destruct b as [|a [|c [|d [|e [|f r']]]]]; cbn -[pack5] in T; injection T as <- <-; auto.
  left. simpl. lia.
Qed.

Lemma take5_shorter : forall b x r, take5 b = (x, r) -> length r <= length b.
Proof. intros b x r T. destruct (take5_length _ _ _ T) as [H| ->]; simpl; lia. Qed.

Lemma encode_prefix : forall f b, length b <= f -> prefix b (unpack (encode_fuel f b)).
Proof.
  induction f as [|f IH]; intros b Hb.
  - destruct b; [exists []; reflexivity|simpl in Hb; lia].
  - destruct b as [|m b'] eqn:Eb; [exists []; reflexivity|]. rewrite <- Eb. rewrite <- Eb in Hb.
    assert (Hne : b <> []) by (rewrite Eb; discriminate).
    assert (encode_fuel (S f) b = let (x1, b) := take5 b in let (x2, b) := take5 b in
      let (x3, b) := take5 b in let (x4, b) := take5 b in let (x5, b) := take5 b in
      P x1 x2 x3 x4 x5 (encode_fuel f b)) as ->
      by (rewrite Eb; reflexivity).
    destruct (take5 b) as [x1 b1] eqn:T1. destruct (take5 b1) as [x2 b2] eqn:T2.
    destruct (take5 b2) as [x3 b3] eqn:T3. destruct (take5 b3) as [x4 b4] eqn:T4.
    destruct (take5 b4) as [x5 b5] eqn:T5. simpl.
    assert (L5 : length b5 <= f).
    { pose proof (take5_shorter _ _ _ T2). pose proof (take5_shorter _ _ _ T3).
      pose proof (take5_shorter _ _ _ T4). pose proof (take5_shorter _ _ _ T5).
      destruct (take5_length _ _ _ T1) as [Hl| ->]; [|simpl in *; lia].
      assert (length b >= 1) by (destruct b; [contradiction|simpl; lia]). lia. }
    apply (take5_prefix _ _ _ _ T1), (take5_prefix _ _ _ _ T2), (take5_prefix _ _ _ _ T3),
      (take5_prefix _ _ _ _ T4), (take5_prefix _ _ _ _ T5), IH, L5.
Qed.

(** Decoding gives back the board that was packed. *)
Theorem decode_encode : forall b, decode (length b) (encode b) = b.
Proof.
  intro b. unfold decode, encode. destruct (encode_prefix (length b) b (le_n _)) as [pad ->].
  rewrite firstn_app, firstn_all, Nat.sub_diag. simpl. apply app_nil_r.
Qed.
