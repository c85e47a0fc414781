/** Loupe's version, in one place: the CLI, the page's `/version`, the client info and trace files say it. */
export const VERSION = '0.1.0';
