/**
 * Vigil's icon for browser tabs and bookmarks: the mark of the console's header (a pulse in a
 * ring), white on the brand's blue so it reads on light and dark tab strips alike.
 */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#23408e"/><circle cx="16" cy="16" r="11" fill="none" stroke="#fff" stroke-width="2.5"/><path d="M9 16h4l2.5-5 3 10 2.5-5h3" fill="none" stroke="#fff" stroke-width="2.2" stroke-linejoin="round" stroke-linecap="round"/></svg>
`;
