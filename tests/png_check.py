"""png_check.py PNG MIN_COLOURS MIN_INK: the screenshot is not blank.

Decodes the PNG with zlib alone (8-bit RGB or RGBA, not interlaced: what Chromium writes),
counts its distinct colours and the share of pixels that are not near-white, and exits 1
unless there are at least MIN_COLOURS colours and MIN_INK (a fraction) of ink.
"""
import struct
import sys
import zlib


def pixels(path):
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
    pos, idat, hdr = 8, b'', None
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            hdr = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    assert depth == 8 and ctype in (2, 6) and not interlace, f'unsupported PNG {hdr}'
    bpp = 3 if ctype == 2 else 4
    raw, stride, prev, out = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out.append(bytes(line))
        prev = line
    return w, h, bpp, out


def main():
    path, min_colours, min_ink = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    w, h, bpp, rows = pixels(path)
    colours, ink = set(), 0
    for line in rows:
        for x in range(0, len(line), bpp):
            px = line[x:x + 3]
            colours.add(px)
            ink += min(px) < 235
    share = ink / (w * h)
    print(f'{w}x{h}: {len(colours)} colours, {share:.1%} ink')
    sys.exit(0 if len(colours) >= min_colours and share >= min_ink else 1)


if __name__ == '__main__':
    main()
