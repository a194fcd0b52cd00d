// Magnetic Poetry: the board as a picture (PNG), drawn on a canvas from what is on screen.

/**
 * Draws `snapshot` (Board#snapshot(): px boxes of the magnets as shown) over `background` (a loaded
 * <img>, or null for the plain fridge door) at `width` px wide, under a band with the poem's `title`,
 * and resolves with a PNG Blob.
 */
export function renderPNG(snapshot, { background = null, width = 1080, dark = false, title = '' } = {}) {
  const k = width / (snapshot.width || 1);
  const band = title ? Math.round(width * 0.1) : 0;
  const height = Math.round(snapshot.height * k);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height + band;
  const ctx = canvas.getContext('2d');
  if (band) {
    ctx.fillStyle = dark ? '#141519' : '#f6f3ec';
    ctx.fillRect(0, 0, width, band);
    ctx.fillStyle = dark ? '#f1eee7' : '#1d1b18';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.font = `700 ${Math.round(band * 0.42)}px ${snapshot.family}`;
    ctx.fillText(title, width / 2, band / 2, width * 0.92);
    ctx.translate(0, band);
  }

  if (background && background.complete && background.naturalWidth) {
    const cover = Math.max(width / background.naturalWidth, height / background.naturalHeight);
    const w = background.naturalWidth * cover;
    const h = background.naturalHeight * cover;
    ctx.drawImage(background, (width - w) / 2, (height - h) / 2, w, h);
  } else {
    const door = ctx.createLinearGradient(0, 0, width, height);
    door.addColorStop(0, dark ? '#30343b' : '#f5f6f4');
    door.addColorStop(1, dark ? '#1f2227' : '#d9ddda');
    ctx.fillStyle = door;
    ctx.fillRect(0, 0, width, height);
  }

  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.font = `${snapshot.fontSize * k}px ${snapshot.family}`;
  for (const item of [...snapshot.items].sort((a, b) => a.z - b.z)) {
    const w = item.w * k;
    const h = item.h * k;
    ctx.save();
    ctx.translate((item.x + item.w / 2) * k, (item.y + item.h / 2) * k);
    ctx.rotate(((item.rotation || 0) * Math.PI) / 180);
    ctx.shadowColor = 'rgba(0, 0, 0, 0.28)';
    ctx.shadowBlur = 3 * k;
    ctx.shadowOffsetY = 1.5 * k;
    ctx.fillStyle = dark ? '#ebe8e1' : '#fdfcf8';
    ctx.beginPath();
    if (ctx.roundRect) ctx.roundRect(-w / 2, -h / 2, w, h, 2 * k);
    else ctx.rect(-w / 2, -h / 2, w, h);
    ctx.fill();
    ctx.shadowColor = 'transparent';
    ctx.fillStyle = '#1d1b18';
    ctx.fillText(item.word, 0, h * 0.04, Math.max(1, w - 0.3 * h));
    ctx.restore();
  }

  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The picture could not be made.'))), 'image/png');
  });
}

/** A file name from a poem's title: "Night song" → "Night song.png". */
export const fileName = (title) =>
  `${
    String(title || '')
      .replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ')
      .trim()
      .slice(0, 80) || 'poem'
  }.png`;

/** Shares `blob` as a file where the browser can (phones), else downloads it through `link` (an <a download>). */
export async function shareOrDownload(blob, { title, link }) {
  const file = new File([blob], fileName(title), { type: 'image/png' });
  if (navigator.canShare && navigator.share && navigator.canShare({ files: [file] })) {
    try {
      await navigator.share({ files: [file], title });
      return 'shared';
    } catch (error) {
      if (error && error.name === 'AbortError') return 'cancelled';
    }
  }
  download(blob, link, title);
  return 'downloaded';
}

/** Points `link` at a fresh blob URL for `blob` (revoking the previous one), shows it and clicks it. */
export function download(blob, link, title) {
  if (link.href.startsWith('blob:')) URL.revokeObjectURL(link.href);
  link.download = link.textContent = fileName(title);
  link.href = URL.createObjectURL(blob);
  link.hidden = false;
  link.click();
}
