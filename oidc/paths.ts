/** Where the embedded provider lives on the server's origin (a module without the provider, which loads on start). */
export const OIDC_PREFIX = '/oidc';
