import { getBalanceV1, getMe } from './account.ts';
import {
  getAnalyticsActivity,
  getAnalyticsBreakdown,
  getAnalyticsSummary,
  getAnalyticsTimeseries,
} from './analytics.ts';
import { getAnalyticsPerformance, getAnalyticsPerformanceTimeseries } from './analytics-performance.ts';
import {
  createApiKey,
  listApiKeyReveals,
  listApiKeyShares,
  listApiKeys,
  removeApiKeyShare,
  revealApiKey,
  revokeApiKey,
  rotateApiKey,
  shareApiKey,
  updateApiKey,
} from './api-keys.ts';
import { listAuditLog } from './audit-log.ts';
import { devDemo, devMailbox, sendOtp, signOut, verifyOtp } from './auth.ts';
import { getBalance, listLedgerEntries } from './billing.ts';
import {
  createBudget,
  deleteBudget,
  getBudget,
  getTeamSettings,
  listBudgets,
  updateBudget,
  updateTeamSettings,
} from './budgets.ts';
import type { EndpointDef } from './endpoint.ts';
import {
  createFileArchive,
  createUploadSession,
  deleteFile,
  getFile,
  getFileLineage,
  importFile,
  listFiles,
  updateFile,
  uploadFile,
  uploadToSession,
} from './files.ts';
import { createFolder, getFolder, listFolders, updateFolder } from './folders.ts';
import {
  analyzeVideo,
  callTool,
  createImage,
  createMusic,
  createRender,
  createSpeech,
  createTranscription,
  createVideo,
  ffmpegResizeV1,
  runFfmpeg,
  runPipeline,
} from './generation.ts';
import {
  cancelJob,
  getJob,
  getJobPrice,
  getJobStatus,
  listJobs,
  listJobWebhookDeliveries,
  redeliverJobWebhook,
  refreshJob,
  retryJob,
} from './jobs.ts';
import { getOpenApiJson, getOpenApiYaml } from './meta.ts';
import { decideOAuthConsent, getOAuthClient } from './oauth.ts';
import {
  createPreset,
  deletePreset,
  getPreset,
  getPresetPreview,
  listPresets,
  updatePreset,
} from './presets.ts';
import { getPricing } from './pricing.ts';
import { listRunTimes } from './run-times.ts';
import {
  inviteTeamMember,
  listTeamMembers,
  removeTeamMember,
  revokeTeamInvitation,
  updateTeamMember,
} from './team.ts';
import {
  getTemplate,
  listTemplates,
  listTemplateTags,
  publishTemplate,
  renderTemplate,
  reviewTemplate,
  useTemplate,
} from './templates.ts';
import { getTool, listTools } from './tools.ts';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpointDeliveries,
  listWebhookEndpoints,
  recoverWebhookEndpoint,
  redeliverWebhookEndpointDelivery,
  updateWebhookEndpoint,
} from './webhook-endpoints.ts';
import { getWebhookSecret, rotateWebhookSecret, sendWebhookTestEvent } from './webhooks.ts';

/**
 * The endpoint table: one entry per operation of the interface. The server mounts it, the client
 * is derived from it and the OpenAPI document is generated from it.
 */
export const endpoints = {
  // Account: sign-in (app host), who am I
  sendOtp,
  verifyOtp,
  signOut,
  devMailbox,
  devDemo,
  getMe,
  // Generation (spec 4.2) and the v1 resize (spec 9)
  createImage,
  createVideo,
  analyzeVideo,
  createSpeech,
  createMusic,
  createTranscription,
  runFfmpeg,
  createRender,
  runPipeline,
  callTool,
  ffmpegResizeV1,
  // Tools, and this document (spec 9)
  listTools,
  getTool,
  getOpenApiJson,
  getOpenApiYaml,
  // Jobs
  listJobs,
  getJob,
  getJobStatus,
  refreshJob,
  cancelJob,
  retryJob,
  getJobPrice,
  listJobWebhookDeliveries,
  redeliverJobWebhook,
  // Files and lineage
  uploadFile,
  createUploadSession,
  uploadToSession,
  importFile,
  listFiles,
  getFile,
  updateFile,
  deleteFile,
  createFileArchive,
  getFileLineage,
  // Folders
  createFolder,
  listFolders,
  getFolder,
  updateFolder,
  // Presets
  getPreset,
  listPresets,
  getPresetPreview,
  createPreset,
  updatePreset,
  deletePreset,
  // Templates
  useTemplate,
  listTemplateTags,
  listTemplates,
  getTemplate,
  publishTemplate,
  renderTemplate,
  reviewTemplate,
  // Pricing
  getPricing,
  listRunTimes,
  // Billing
  getBalanceV1,
  getBalance,
  listLedgerEntries,
  listBudgets,
  createBudget,
  getBudget,
  updateBudget,
  deleteBudget,
  // Analytics
  getAnalyticsSummary,
  getAnalyticsTimeseries,
  getAnalyticsBreakdown,
  getAnalyticsActivity,
  getAnalyticsPerformance,
  getAnalyticsPerformanceTimeseries,
  // Account: API keys, team, webhooks
  listApiKeys,
  createApiKey,
  updateApiKey,
  rotateApiKey,
  revokeApiKey,
  revealApiKey,
  shareApiKey,
  listApiKeyShares,
  removeApiKeyShare,
  listApiKeyReveals,
  listTeamMembers,
  inviteTeamMember,
  revokeTeamInvitation,
  updateTeamMember,
  removeTeamMember,
  getTeamSettings,
  updateTeamSettings,
  listAuditLog,
  getWebhookSecret,
  rotateWebhookSecret,
  sendWebhookTestEvent,
  listWebhookEndpoints,
  createWebhookEndpoint,
  getWebhookEndpoint,
  updateWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpointDeliveries,
  redeliverWebhookEndpointDelivery,
  recoverWebhookEndpoint,
  // MCP authorization: the console's consent page
  getOAuthClient,
  decideOAuthConsent,
} satisfies Record<string, EndpointDef>;

export type Endpoints = typeof endpoints;
export type OperationId = keyof Endpoints;
