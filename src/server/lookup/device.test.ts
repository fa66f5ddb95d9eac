import { describe, expect, it } from 'vitest';
import { detectDevice, parseBrands } from './device.ts';

const UA = {
  chromeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  edgeWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0',
  operaWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/109.0.0.0',
  firefoxLinux: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  safariMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  safariIphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  safariIpad: 'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  chromeAndroidPhone: 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  chromeAndroidTablet: 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  chromeOs: 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  samsung: 'Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
};
const CHROME_BRANDS = '"Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"';

function headers(values: Record<string, string>) {
  const lower = Object.fromEntries(Object.entries(values).map(([k, v]) => [k.toLowerCase(), v]));
  return { get: (name: string) => lower[name.toLowerCase()] ?? null };
}

describe('detectDevice', () => {
  it.each([
    ['Chrome on Windows', { 'User-Agent': UA.chromeWindows }, 'Chrome', 'Windows', 'Desktop', false],
    ['Edge on Windows', { 'User-Agent': UA.edgeWindows }, 'Edge', 'Windows', 'Desktop', false],
    ['Opera on Windows', { 'User-Agent': UA.operaWindows }, 'Opera', 'Windows', 'Desktop', false],
    ['Firefox on Linux', { 'User-Agent': UA.firefoxLinux }, 'Firefox', 'Linux', 'Desktop', false],
    ['Safari on a Mac', { 'User-Agent': UA.safariMac }, 'Safari', 'macOS', 'Desktop', false],
    ['Safari on an iPhone', { 'User-Agent': UA.safariIphone }, 'Safari', 'iOS', 'Mobile', false],
    ['Safari on an iPad', { 'User-Agent': UA.safariIpad }, 'Safari', 'iOS', 'Tablet', false],
    ['Chrome on an Android phone', { 'User-Agent': UA.chromeAndroidPhone }, 'Chrome', 'Android', 'Mobile', false],
    ['Chrome on an Android tablet', { 'User-Agent': UA.chromeAndroidTablet }, 'Chrome', 'Android', 'Tablet', false],
    ['ChromeOS, reported as the Linux it runs', { 'User-Agent': UA.chromeOs }, 'Chrome', 'Linux', 'Desktop', false],
    ['a browser outside the list', { 'User-Agent': UA.samsung }, 'Unknown', 'Android', 'Mobile', false],
    ['curl, a command-line client', { 'User-Agent': 'curl/8.5.0' }, 'Unknown', 'Unknown', 'Desktop', true],
    ['Wget', { 'User-Agent': 'Wget/1.21.4' }, 'Unknown', 'Unknown', 'Desktop', true],
    ['HTTPie', { 'User-Agent': 'HTTPie/3.2.2' }, 'Unknown', 'Unknown', 'Desktop', true],
    ['Googlebot', { 'User-Agent': UA.googlebot }, 'Unknown', 'Unknown', 'Desktop', true],
    // Client hints say more than the reduced User-Agent of Chromium browsers.
    ['the platform hint over the reduced UA', { 'User-Agent': UA.chromeWindows, 'Sec-CH-UA': CHROME_BRANDS, 'Sec-CH-UA-Platform': '"macOS"' }, 'Chrome', 'macOS', 'Desktop', false],
    ['the mobile hint ?1', { 'User-Agent': UA.chromeAndroidTablet, 'Sec-CH-UA': CHROME_BRANDS, 'Sec-CH-UA-Mobile': '?1', 'Sec-CH-UA-Platform': '"Android"' }, 'Chrome', 'Android', 'Mobile', false],
    ['an Android device that is not mobile: a tablet', { 'User-Agent': UA.chromeAndroidPhone, 'Sec-CH-UA': CHROME_BRANDS, 'Sec-CH-UA-Mobile': '?0', 'Sec-CH-UA-Platform': '"Android"' }, 'Chrome', 'Android', 'Tablet', false],
    ['the ChromeOS platform hint', { 'User-Agent': UA.chromeWindows, 'Sec-CH-UA-Platform': '"Chrome OS"', 'Sec-CH-UA-Mobile': '?0' }, 'Chrome', 'Linux', 'Desktop', false],
    ['an unknown platform hint falls back to the UA', { 'User-Agent': UA.firefoxLinux, 'Sec-CH-UA-Platform': '"Unknown"' }, 'Firefox', 'Linux', 'Desktop', false],
    // Names of Object.prototype's members are no platform: once a `{}` where the OS goes.
    ['a platform hint of __proto__', { 'User-Agent': ' ', 'Sec-CH-UA-Platform': '__proto__' }, 'Unknown', 'Unknown', 'Desktop', true],
    ['a platform hint of constructor', { 'User-Agent': UA.firefoxLinux, 'Sec-CH-UA-Platform': '"constructor"' }, 'Firefox', 'Linux', 'Desktop', false],
  ])('recognises %s', (_, values, browser, os, device, bot) => {
    const userAgent = values['User-Agent'];
    expect(detectDevice(headers(values))).toEqual({ browser, os, device, userAgent, bot });
  });

  it('is null with no User-Agent anywhere', () => {
    expect(detectDevice(headers({}))).toBeNull();
    expect(detectDevice(undefined)).toBeNull();
    expect(detectDevice(headers({}), '')).toBeNull();
  });

  it("uses the browser's reported userAgent when the headers have none, without the GPS-refresh marker", () => {
    expect(detectDevice(headers({}), `${UA.firefoxLinux} bypass-cache`)).toMatchObject({ browser: 'Firefox', userAgent: UA.firefoxLinux });
  });

  it('prefers the header User-Agent over the reported one', () => {
    expect(detectDevice(headers({ 'User-Agent': UA.safariMac }), UA.firefoxLinux)?.browser).toBe('Safari');
  });

  it('answers a repeated User-Agent from its cache with the same result', () => {
    const first = detectDevice(headers({ 'User-Agent': UA.edgeWindows }));
    expect(detectDevice(headers({ 'User-Agent': UA.edgeWindows }))).toBe(first);
    // Different hints with the same User-Agent are a different entry.
    expect(detectDevice(headers({ 'User-Agent': UA.edgeWindows, 'Sec-CH-UA-Platform': '"Linux"' }))?.os).toBe('Linux');
  });

  it('keeps answering correctly after more distinct User-Agents than the cache holds', () => {
    for (let i = 0; i < 1100; i++) detectDevice(headers({ 'User-Agent': `curl/8.${i}.0` }));
    expect(detectDevice(headers({ 'User-Agent': UA.safariIphone }))).toMatchObject({ os: 'iOS', device: 'Mobile' });
  });
});

describe('parseBrands', () => {
  it('reads brand and version pairs, GREASE brands included', () => {
    expect(parseBrands(CHROME_BRANDS)).toEqual([
      { brand: 'Chromium', version: '124' }, { brand: 'Google Chrome', version: '124' }, { brand: 'Not-A.Brand', version: '99' },
    ]);
  });
  it('ignores malformed input', () => expect(parseBrands('garbage, "x"')).toEqual([]));
});
