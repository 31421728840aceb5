// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, securityHeaders } from './security-headers.ts';

const connectSrc = (policy: string) => policy.split('; ').find((directive) => directive.startsWith('connect-src '));

describe('connect-src of the Content-Security-Policy', () => {
  it('adds the origin of each absolute endpoint the configuration names', () => {
    expect(connectSrc(contentSecurityPolicy())).toBe("connect-src 'self' wss://events.circle.example.org");
    expect(connectSrc(contentSecurityPolicy({ apiBaseUrl: 'https://api.example.org/v1', eventBusUrl: 'ws://localhost:9/bus' }))).toBe(
      "connect-src 'self' https://api.example.org ws://localhost:9",
    );
  });

  it('takes http and https, ws and wss', () => {
    const policy = contentSecurityPolicy({
      apiBaseUrl: 'http://localhost:8081/api',
      eventBusUrl: 'wss://bus.example.org/events',
      chatBot: { v1: 'https://bot.example.org/v1', v2: 'ws://localhost:9000/v2' },
      identityProvider: { issuer: 'https://idp.example.org/realms/circle', clientId: 'circle-web', scope: 'openid' },
    });
    expect(connectSrc(policy)).toBe(
      "connect-src 'self' http://localhost:8081 wss://bus.example.org https://bot.example.org ws://localhost:9000 https://idp.example.org",
    );
  });

  it('leaves out a path on the own origin, a value that is no URL and a scheme a page cannot connect to', () => {
    for (const apiBaseUrl of ['/api/', '//elsewhere.example.org/api', 'not a url', 'ftp://files.example.org/', '']) {
      expect(connectSrc(contentSecurityPolicy({ apiBaseUrl, eventBusUrl: '/bus' })), apiBaseUrl).toBe("connect-src 'self'");
    }
  });

  it('reads a configuration file that sets a group of endpoints to null as naming none of them', () => {
    // As the server reads the build's ui-config.json: JSON, not checked against AppConfig.
    const config = JSON.parse('{ "chatBot": null, "identityProvider": null }');
    expect(connectSrc(contentSecurityPolicy(config))).toBe("connect-src 'self' wss://events.circle.example.org");
  });
});

describe('the security headers of every answer', () => {
  it('allow only the own origin for everything but images and connections, and no framing', () => {
    expect(contentSecurityPolicy()).toBe(
      [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data: blob:",
        "font-src 'self'",
        "connect-src 'self' wss://events.circle.example.org",
        "worker-src 'self'",
        "manifest-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ].join('; '),
    );
  });

  it("allow the build's inline scripts by their hashes, and never inline code as such", () => {
    const hashes = ["'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='", "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"];
    const policy = contentSecurityPolicy({}, hashes);
    expect(policy.split('; ')).toContain(`script-src 'self' ${hashes.join(' ')}`);
    expect(policy).toBe(contentSecurityPolicy().replace("script-src 'self'", `script-src 'self' ${hashes.join(' ')}`));
    expect(policy).not.toContain('unsafe-inline');
  });

  it('carry the policy given, and turn off sniffing, framing, powerful features, cross-origin openers and embedding by other sites', () => {
    expect(securityHeaders('the policy')).toEqual({
      'content-security-policy': 'the policy',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'x-frame-options': 'DENY',
    });
  });
});
