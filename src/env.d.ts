/// <reference types="astro/client" />

declare namespace App {
  /** What the server hands to on-demand pages (built in src/server/routes.ts). */
  interface Locals {
    /** The visitor's address as the server derived it (see src/server/client-ip.ts). */
    clientIp: string;
    /** The full lookup for that address, done in-process before rendering. */
    lookup: import('./lib/record.ts').LookupResponse;
    /** Runtime settings for the islands (tiles, STUN, IPv4/IPv6 echo URLs). */
    clientConfig: import('./lib/client-config.ts').ClientConfig;
  }
}
