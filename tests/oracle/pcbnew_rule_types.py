"""Lists the DRC types whose severity a project can set, as this pcbnew writes them.

    /usr/bin/python3 pcbnew_rule_types.py BOARD.kicad_pcb OUT_DIR  ->  ["annular_width", ...]
Saves the board into OUT_DIR (no project beside it there, so pcbnew writes its defaults) and reads
back the rule_severities of the .kicad_pro it wrote: one key per DRC type of this KiCad version.
"""
import json
import os
import sys

import pcbnew

src, out = sys.argv[1], sys.argv[2]
board = pcbnew.LoadBoard(src)
if board is None:
    sys.exit('pcbnew could not load %s' % src)
dst = os.path.join(out, 'types.kicad_pcb')
pcbnew.SaveBoard(dst, board)
with open(os.path.join(out, 'types.kicad_pro'), encoding='utf-8') as f:
    project = json.load(f)
print(json.dumps({'severities': project['board']['design_settings']['rule_severities']}, sort_keys=True))
