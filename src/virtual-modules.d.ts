/** The themes' custom properties as a stylesheet, made by the build (scripts/theme-css-plugin.ts). */
declare module 'virtual:theme-tokens.css';
