import { getBalanceV1, getMe } from './account.ts';
import { devMailbox, sendOtp, signOut, verifyOtp } from './auth.ts';
import type { EndpointDef } from './endpoint.ts';
import { getPricing } from './pricing.ts';
import { getTool, listTools } from './tools.ts';

/**
 * The endpoint table: one entry per operation of the interface. The server mounts it, the client
 * is derived from it and the OpenAPI document is generated from it.
 */
export const endpoints = {
  sendOtp,
  verifyOtp,
  signOut,
  devMailbox,
  getMe,
  getBalanceV1,
  getPricing,
  listTools,
  getTool,
} satisfies Record<string, EndpointDef>;

export type Endpoints = typeof endpoints;
export type OperationId = keyof Endpoints;
