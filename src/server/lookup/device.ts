/**
 * Device details (browser, OS, device type, bot) from the User-Agent and the User-Agent
 * Client Hints (Sec-CH-UA, -Mobile, -Platform), with bowser and isbot. Hints win where
 * they say more than the frozen, reduced User-Agent of Chromium browsers: the platform
 * and whether the device is mobile. Parsing takes tens of microseconds, so results are
 * kept per User-Agent + hints in a bounded map, oldest out first (a few hundred distinct
 * strings cover most traffic).
 */
import Bowser from 'bowser';
import { isbot } from 'isbot';
import type { DeviceInfo } from '../../lib/record.ts';
import { BoundedMap } from '../utils/bounded-map.ts';

type Headers = { get(name: string): string | null };
type Browser = DeviceInfo['browser'];
type Os = DeviceInfo['os'];

const CACHE_MAX = 1000;
const VARIANTS_MAX = 4;
/** Parsed results for one User-Agent: one per set of hints seen with it. */
interface Variant { brands: string; mobile: string; platform: string; info: DeviceInfo }
// Keyed by User-Agent alone, so a lookup hashes one string and builds no key; the oldest
// User-Agent out first (a hit costs one Map lookup, no reordering).
const cache = new BoundedMap<string, Variant[]>(CACHE_MAX);

// bowser's names → the record's. Chromium-based browsers bowser names on their own
// (Brave, Vivaldi, Samsung Internet...) are outside the record's list: 'Unknown'.
// Maps, not objects: a header value of `__proto__` or `constructor` must name nothing.
const BROWSERS = new Map<string, Browser>(Object.entries({
  Chrome: 'Chrome', Chromium: 'Chrome', Firefox: 'Firefox', Safari: 'Safari', 'Microsoft Edge': 'Edge', Opera: 'Opera',
}));
// bowser's OS names and Sec-CH-UA-Platform values → the record's. ChromeOS runs Linux.
const SYSTEMS = new Map<string, Os>(Object.entries({
  Windows: 'Windows', macOS: 'macOS', Linux: 'Linux', Android: 'Android', iOS: 'iOS', 'Chrome OS': 'Linux', ChromeOS: 'Linux',
}));

/** The brands of a Sec-CH-UA header (`"Chromium";v="124", "Google Chrome";v="124"`). */
export function parseBrands(header: string): { brand: string; version: string }[] {
  return [...header.matchAll(/"([^"]*)"\s*;\s*v\s*=\s*"([^"]*)"/g)].map((m) => ({ brand: m[1]!, version: m[2]! }));
}

function unquote(value: string | null): string {
  return value ? value.trim().replace(/^"(.*)"$/, '$1') : '';
}

function parse(userAgent: string, brandsHeader: string, mobileHeader: string, platformHeader: string): DeviceInfo {
  const brands = brandsHeader ? parseBrands(brandsHeader) : undefined;
  const hintedMobile = mobileHeader === '?1' ? true : mobileHeader === '?0' ? false : undefined;
  const platform = unquote(platformHeader);
  const parsed = Bowser.parse(userAgent, brands ? { brands, mobile: hintedMobile, platform } : undefined);
  const os: Os = SYSTEMS.get(platform) ?? SYSTEMS.get(parsed.os.name ?? '') ?? 'Unknown';
  const device: DeviceInfo['device'] = hintedMobile === true ? 'Mobile'
    // Chromium on an Android tablet says ?0 (not mobile); a phone says ?1.
    : hintedMobile === false ? (os === 'Android' ? 'Tablet' : 'Desktop')
    : parsed.platform.type === 'mobile' ? 'Mobile' : parsed.platform.type === 'tablet' ? 'Tablet' : 'Desktop';
  return Object.freeze({
    browser: BROWSERS.get(parsed.browser.name ?? '') ?? 'Unknown',
    os,
    device,
    userAgent,
    bot: isbot(userAgent),
  });
}

/**
 * Device details from request headers; `fallbackUserAgent` (what the browser reported in
 * the lookup body) is used when the headers carry no User-Agent. null without either.
 * The result is shared between requests: do not mutate it.
 */
export function detectDevice(headers: Headers | undefined, fallbackUserAgent?: string): DeviceInfo | null {
  // A client of POST /api/lookup may end the body's userAgent with ' bypass-cache' to mark a
  // refresh after a new GPS position: no part of the browser's name, so it is cut (device.test.ts).
  const userAgent = headers?.get('user-agent') || fallbackUserAgent?.replace(/ bypass-cache$/, '') || '';
  if (userAgent === '') return null;
  const brands = headers?.get('sec-ch-ua') ?? '';
  const mobile = headers?.get('sec-ch-ua-mobile') ?? '';
  const platform = headers?.get('sec-ch-ua-platform') ?? '';
  let variants = cache.get(userAgent);
  if (!variants) {
    variants = [];
    cache.set(userAgent, variants);
  }
  for (const v of variants) if (v.brands === brands && v.mobile === mobile && v.platform === platform) return v.info;
  const info = parse(userAgent, brands, mobile, platform);
  if (variants.unshift({ brands, mobile, platform, info }) > VARIANTS_MAX) variants.pop();
  return info;
}
