/** Whether the browser would go on to submit (and reload the page) after the form handled it. */
export function watchSubmits(): { reloaded: () => boolean } {
  let reloaded = false;
  const listener = (event: Event) => {
    reloaded ||= !event.defaultPrevented;
  };
  document.addEventListener('submit', listener);
  return {
    reloaded: () => {
      document.removeEventListener('submit', listener);
      return reloaded;
    },
  };
}
