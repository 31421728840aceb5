/** The themes' custom properties as a stylesheet, made by the build (src/prerender/theme-stylesheet.ts). */
declare module 'virtual:theme-tokens.css';
