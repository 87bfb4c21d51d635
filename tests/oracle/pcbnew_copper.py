"""Lists the tracks, arcs and vias pcbnew reads from each board given, one JSON line a board.

    /usr/bin/python3 pcbnew_copper.py A.kicad_pcb B.kicad_pcb ...
Coordinates in nm; layer and net by name, as KiCad reports them.
"""
import json
import sys

import pcbnew

for path in sys.argv[1:]:
    b = pcbnew.LoadBoard(path)
    items = []
    for t in b.GetTracks():
        cls = t.GetClass()
        if cls == 'PCB_VIA':
            p = t.GetPosition()
            items.append({'kind': 'via', 'x': p.x, 'y': p.y, 'size': t.GetWidth(pcbnew.F_Cu) if hasattr(t, 'GetWidth') else t.GetWidth(),
                          'drill': t.GetDrillValue(), 'top': b.GetLayerName(t.TopLayer()), 'bottom': b.GetLayerName(t.BottomLayer()),
                          'net': t.GetNetname(), 'locked': t.IsLocked()})
        else:
            s, e = t.GetStart(), t.GetEnd()
            item = {'kind': 'arc' if cls == 'PCB_ARC' else 'segment', 'sx': s.x, 'sy': s.y, 'ex': e.x, 'ey': e.y,
                    'width': t.GetWidth(), 'layer': b.GetLayerName(t.GetLayer()), 'net': t.GetNetname(), 'locked': t.IsLocked()}
            if cls == 'PCB_ARC':
                m = t.GetMid()
                item['mx'], item['my'] = m.x, m.y
            items.append(item)
    print(json.dumps({'file': path, 'items': items}), flush=True)
