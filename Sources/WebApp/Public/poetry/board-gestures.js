// Magnetic Poetry: the board's gestures beyond dragging, added to Board (board.js) when the first magnet is on an
// editable board: the rotate handle and the two-finger twist, the keyboard, and the shadows' tilt with the device.
import { reducedMotion } from './board.js';

const clamp = (value, low, high) => Math.min(high, Math.max(low, value));

export const gestures = {
  startRotate(e) {
    const magnet = this.selected && this.magnet(this.selected);
    if (!magnet) return;
    e.preventDefault();
    this.skipClick = false;
    e.target.closest('.pm-rotate').setPointerCapture(e.pointerId);
    const { x, y } = this.centre(magnet);
    this.drag = {
      kind: 'rotate', id: magnet.id, pointerId: e.pointerId, cx: x, cy: y, startX: e.clientX, startY: e.clientY,
      start: Math.atan2(e.clientY - y, e.clientX - x), from: magnet.rotation, moved: false, changed: false,
    };
  },

  /** A magnet's centre in client coordinates. */
  centre(magnet) {
    const rect = this.el.getBoundingClientRect();
    const node = this.nodes.get(magnet.id);
    const at = this.shown.get(magnet.id) || { x: 0, y: 0 };
    return { x: rect.left + this.el.clientLeft + at.x + node.offsetWidth / 2, y: rect.top + this.el.clientTop + at.y + node.offsetHeight / 2 };
  },

  angle(x, y) {
    return Math.atan2(y - this.drag.y, x - this.drag.x);
  },

  applyTwist(magnet) {
    const twist = this.twist;
    this.touch(this.drag);
    const now = Math.atan2(twist.y - this.drag.y, twist.x - this.drag.x);
    this.rotate(magnet, twist.from + ((now - twist.start) * 180) / Math.PI);
  },

  keyDown(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const onRotate = e.target.closest?.('.pm-rotate');
    const node = e.target.closest?.('.pm-magnet');
    const magnet = onRotate ? this.magnet(this.selected) : node && this.magnet(node.dataset.id);
    if (!magnet) return;
    const { width, height } = this.size();
    const step = e.shiftKey ? 0.05 : 0.01;
    const nudges = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (onRotate && (e.key === 'ArrowLeft' || e.key === 'ArrowRight' || e.key === 'ArrowUp' || e.key === 'ArrowDown')) {
      e.preventDefault();
      this.onBefore(`rotate:${magnet.id}`);
      this.rotate(magnet, magnet.rotation + (e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -5 : 5));
      this.changed();
    } else if (onRotate) {
      return;
    } else if (nudges[e.key]) {
      e.preventDefault();
      const [dx, dy] = nudges[e.key];
      this.onBefore(`nudge:${magnet.id}`);
      const at = this.shown.get(magnet.id);
      this.move(magnet, at.x + dx * step * width, at.y + dy * step * height);
      this.changed();
    } else if (e.key === '[' || e.key === ']') {
      e.preventDefault();
      this.onBefore(`rotate:${magnet.id}`);
      this.rotate(magnet, magnet.rotation + (e.key === '[' ? -15 : 15));
      this.changed();
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      this.remove(magnet.id);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.select(this.selected === magnet.id ? null : magnet.id);
    } else if (e.key === 'Escape' && this.selected) {
      this.select(null);
    }
  },

  /** A subtle tilt of the magnets' shadows with the device, where it reports its orientation. */
  tiltWithDevice() {
    if (reducedMotion() || !('DeviceOrientationEvent' in window)) return;
    let frame = 0;
    window.addEventListener('deviceorientation', (e) => {
      if (e.beta === null || e.gamma === null || frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        this.el.style.setProperty('--pm-sx', `${clamp(e.gamma / 30, -1, 1) * 3}px`);
        this.el.style.setProperty('--pm-sy', `${clamp((e.beta - 45) / 30, -1, 1) * 3}px`);
      });
    });
  },

  rotateDrag(drag, magnet, e) {
    this.touch(drag);
    let degrees = drag.from + ((Math.atan2(e.clientY - drag.cy, e.clientX - drag.cx) - drag.start) * 180) / Math.PI;
    const snapped = Math.round(degrees / 90) * 90;
    if (Math.abs(degrees - snapped) < 3) degrees = snapped;
    this.rotate(magnet, degrees);
  },

  rotateClick() {
    if (this.skipClick) { this.skipClick = false; return; }
    const magnet = this.selected && this.magnet(this.selected);
    if (!magnet) return;
    this.onBefore(`rotate:${magnet.id}`);
    this.rotate(magnet, magnet.rotation + 15);
    this.changed();
  },
};
