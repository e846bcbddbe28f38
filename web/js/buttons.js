// buttons.js: every disabled button says so to assistive technology too:
// aria-disabled="true" follows the disabled attribute, on every button of
// the page, whoever draws it (style.css gives them one disabled look).

function mirror(root) {
  for (const b of root.querySelectorAll('button')) {
    if (b.disabled) {
      if (b.getAttribute('aria-disabled') !== 'true') b.setAttribute('aria-disabled', 'true');
    } else if (b.getAttribute('aria-disabled') === 'true' && b.hasAttribute('data-aria-mirrored')) {
      b.removeAttribute('aria-disabled');
    }
    if (b.disabled) b.setAttribute('data-aria-mirrored', '');
  }
}

// Keeps aria-disabled in step with disabled from now on.
export function mirrorDisabled(root = document.body) {
  mirror(root);
  new MutationObserver(() => mirror(root)).observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['disabled'] });
}
