/// <reference types="astro/client" />

declare namespace App {
  /** What the server hands to on-demand pages. */
  interface Locals {
    /** The visitor's address as the server derived it (see src/server/client-ip.ts). */
    clientIp: string;
  }
}
