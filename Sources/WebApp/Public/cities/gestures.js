// City Roulette: a scene's row gestures, loaded with the first touch of the list or when favourites can be
// reordered (scene.js): a favourite's handle dragged, a row swiped left to delete it.

/** Reorders a favourite of `view` (a SceneView) by dragging its handle (Pointer Events). */
export function drag(view, e, li) {
  const grip = e.target.closest('.cr-grip');
  const id = Number(li.dataset.id);
  const startY = e.clientY;
  try {
    grip.setPointerCapture(e.pointerId);
  } catch {
    return;
  } // already let go
  li.classList.add('is-dragging');
  const move = (ev) => {
    li.style.transform = `translateY(${ev.clientY - startY}px)`;
  };
  const end = (ev) => {
    grip.removeEventListener('pointermove', move);
    grip.removeEventListener('pointerup', end);
    grip.removeEventListener('pointercancel', end);
    li.style.transform = '';
    li.classList.remove('is-dragging');
    if (ev.type !== 'pointerup') return;
    const others = [...view.list.children].filter((x) => x !== li && !x.hidden && view.state.get(Number(x.dataset.id))?.favourite);
    const above = others.filter((x) => {
      const r = x.getBoundingClientRect();
      return r.top + r.height / 2 < ev.clientY;
    }).length;
    const favourites = view.state
      .myOrder()
      .filter((r) => r.favourite && r.geonameid !== id)
      .map((r) => r.geonameid);
    const index =
      above === 0
        ? others.length
          ? favourites.indexOf(Number(others[0].dataset.id))
          : 0
        : favourites.indexOf(Number(others[above - 1].dataset.id)) + 1;
    if (view.state.moveFavouriteTo(id, index)) view.render();
    grip.focus();
  };
  grip.addEventListener('pointermove', move);
  grip.addEventListener('pointerup', end);
  grip.addEventListener('pointercancel', end);
}

/** Swiping a row left with a finger deletes it; `swiped()` is called once it moved sideways. */
export function swipe(view, e, li, swiped) {
  const x0 = e.clientX;
  const y0 = e.clientY;
  let dx = 0;
  let sideways = false;
  const move = (ev) => {
    dx = Math.min(0, ev.clientX - x0);
    if (!sideways && Math.abs(dx) > 12 && Math.abs(dx) > Math.abs(ev.clientY - y0)) sideways = true;
    if (sideways) li.style.transform = `translateX(${dx}px)`;
  };
  const end = (ev) => {
    li.removeEventListener('pointermove', move);
    li.removeEventListener('pointerup', end);
    li.removeEventListener('pointercancel', end);
    li.style.transform = '';
    if (!sideways) return;
    swiped();
    if (ev.type === 'pointerup' && dx < -li.offsetWidth * 0.35) view.remove(Number(li.dataset.id));
  };
  li.addEventListener('pointermove', move);
  li.addEventListener('pointerup', end);
  li.addEventListener('pointercancel', end);
}
