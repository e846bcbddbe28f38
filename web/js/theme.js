// theme.js: the board's look, illustrated (the default) or plain (the
// flat, high-contrast tiles of before), one click away on every board's
// "Plain" button and remembered in localStorage. The look is
// data-theme on <html>; style.css does the rest.

const KEY = 'carcassonne.theme';

export function currentTheme() {
  try {
    return localStorage.getItem(KEY) === 'plain' ? 'plain' : 'illustrated';
  } catch {
    return 'illustrated';
  }
}

// Applies a theme and keeps it; every toggle button says whether it is on.
export function setTheme(theme) {
  document.documentElement.dataset.theme = theme;
  try {
    localStorage.setItem(KEY, theme);
  } catch {
    /* a browser that keeps nothing still switches for this page */
  }
  for (const b of document.querySelectorAll('[data-theme-toggle]')) b.setAttribute('aria-pressed', String(theme === 'plain'));
}

// Applies the kept theme and makes every [data-theme-toggle] button switch it.
export function initTheme() {
  setTheme(currentTheme());
  document.addEventListener('click', (e) => {
    if (e.target.closest?.('[data-theme-toggle]')) setTheme(currentTheme() === 'plain' ? 'illustrated' : 'plain');
  });
}
