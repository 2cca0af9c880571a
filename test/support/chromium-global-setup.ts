/**
 * vitest's globalSetup: unpacks the browser tests' Chromium once, in the main process, before
 * any worker starts (./chromium-unpack.ts says why).
 */
import { unpackChromium } from "./chromium-unpack";

export default async function setup(): Promise<void> {
  await unpackChromium();
}
