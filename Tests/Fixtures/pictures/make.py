#!/usr/bin/env python3
"""Makes the pictures the thumbnail tests read. Run once, with Pillow and pillow-heif installed
(`python3 -m pip install pillow pillow-heif`); the files are kept in the repository."""
import os

from PIL import Image
import pillow_heif

HERE = os.path.dirname(os.path.abspath(__file__))


def gradient(width, height, mode="RGB"):
    picture = Image.new(mode, (width, height))
    picture.putdata([((x * 255) // width, (y * 255) // height, 128) + ((255,) if mode == "RGBA" else ())
                     for y in range(height) for x in range(width)])
    return picture


def main():
    # A photo as a phone takes it: stored landscape with an orientation of 6 (shown portrait), and where it was taken.
    exif = Image.Exif()
    exif[0x0112] = 6
    exif[0x010F] = "PhoneMaker"
    exif.get_ifd(0x8825).update({1: "N", 2: (48.0, 51.0, 29.0), 3: "E", 4: (2.0, 17.0, 40.0)})
    gradient(320, 240).save(f"{HERE}/photo.jpg", quality=85, exif=exif)
    gradient(300, 200, "RGBA").save(f"{HERE}/picture.png")
    gradient(400, 400).save(f"{HERE}/picture.webp", quality=80)
    gradient(120, 80).convert("P").save(f"{HERE}/picture.gif")
    gradient(200, 100).save(f"{HERE}/picture.bmp")
    pillow_heif.from_pillow(gradient(256, 256)).save(f"{HERE}/picture.heic", quality=70)
    # A decompression bomb: 30,000 × 30,000 pixels of one bit, a hundred kilobytes compressed.
    Image.new("1", (30000, 30000)).save(f"{HERE}/bomb.png", optimize=True)
    with open(f"{HERE}/photo.jpg", "rb") as whole, open(f"{HERE}/truncated.jpg", "wb") as half:
        data = whole.read()
        half.write(data[: len(data) // 2])
    with open(f"{HERE}/drawing.svg", "w") as svg:
        svg.write('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100">'
                  '<script>alert(1)</script><image xlink:href="http://127.0.0.1:9/steal.png" width="100" height="100"/></svg>\n')


if __name__ == "__main__":
    main()
