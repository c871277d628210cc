/** Draws the chosen part of an image, rotated, into a new image file (spec §2 image cropper). */
export interface PixelArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The widest image the cropper writes; a bigger crop is scaled down (keeps uploads under the limit). */
export const MAX_OUTPUT_WIDTH = 2000;

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => {
      resolve(image);
    };
    image.onerror = () => {
      reject(new Error('image'));
    };
    image.src = src;
  });
}

function rotatedSize(width: number, height: number, degrees: number): { width: number; height: number } {
  const r = (degrees * Math.PI) / 180;
  return {
    width: Math.abs(Math.cos(r) * width) + Math.abs(Math.sin(r) * height),
    height: Math.abs(Math.sin(r) * width) + Math.abs(Math.cos(r) * height),
  };
}

/** The crop of `src` (rotated by `rotation` degrees first) as a PNG or JPEG blob. */
export async function cropImage(src: string, area: PixelArea, rotation: number, type: 'image/png' | 'image/jpeg'): Promise<Blob> {
  const image = await loadImage(src);
  const box = rotatedSize(image.naturalWidth, image.naturalHeight, rotation);
  const rotated = document.createElement('canvas');
  rotated.width = Math.round(box.width);
  rotated.height = Math.round(box.height);
  const rctx = rotated.getContext('2d');
  if (!rctx) throw new Error('canvas');
  rctx.translate(rotated.width / 2, rotated.height / 2);
  rctx.rotate((rotation * Math.PI) / 180);
  rctx.translate(-image.naturalWidth / 2, -image.naturalHeight / 2);
  rctx.drawImage(image, 0, 0);

  const scale = Math.min(1, MAX_OUTPUT_WIDTH / Math.max(1, area.width));
  const out = document.createElement('canvas');
  out.width = Math.max(1, Math.round(area.width * scale));
  out.height = Math.max(1, Math.round(area.height * scale));
  const octx = out.getContext('2d');
  if (!octx) throw new Error('canvas');
  if (type === 'image/jpeg') {
    octx.fillStyle = '#ffffff';
    octx.fillRect(0, 0, out.width, out.height);
  }
  octx.drawImage(rotated, area.x, area.y, area.width, area.height, 0, 0, out.width, out.height);
  return new Promise((resolve, reject) => {
    out.toBlob(
      (blob) => {
        if (blob) resolve(blob);
        else reject(new Error('canvas'));
      },
      type,
      0.9,
    );
  });
}
