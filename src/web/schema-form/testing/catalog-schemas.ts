/**
 * Input schemas as the reference server serves them (`GET /v2/tools/{key}?model=`), one model per
 * JSON Schema feature the catalog uses. Two trims: the copy of the root under `$defs.<Tool>Request`
 * (nothing refers to it) and the long `examples` list of `model`.
 */
import type { JsonSchema } from '../json-schema.ts';

const CATALOG_SCHEMAS: Record<string, JsonSchema> = {
  'image/local-sketch': {
    type: 'object',
    properties: {
      model: {
        description: 'Model id, or provider-pinned `<provider>:<model>`.',
        type: 'string',
        minLength: 1,
        maxLength: 200,
        pattern: '^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$',
        default: 'local-sketch',
      },
      prompt: { type: 'string', maxLength: 2000 },
      aspect_ratio: {
        type: 'string',
        pattern: '^[1-9]\\d{0,3}:[1-9]\\d{0,3}$',
        description: 'Form `<w>:<h>`, for example `16:9`.',
      },
      files: {
        description: 'Source images for editing or reference (max 10).',
        maxItems: 10,
        type: 'array',
        items: { $ref: '#/$defs/InputFile' },
      },
      provider_options: {
        type: 'object',
        description:
          'Provider-native fields for Local procedural sketch, keyed by provider id. Used only when that provider runs the job.',
        properties: {
          local: {
            type: 'object',
            properties: {
              seed: {
                type: 'integer',
                minimum: 0,
                maximum: 4294967295,
                description: 'Same seed, same result.',
              },
              style: {
                description:
                  'An image style preset id (GET /v2/presets?type=style): palette, shapes and finish.',
                anyOf: [
                  { type: 'string', const: 'preset_2db41aaba981', title: 'Watercolor' },
                  { type: 'string', const: 'preset_acf933c87bf4', title: 'Ink sketch' },
                  { type: 'string', const: 'preset_f91cc784e1e9', title: 'Neon noir' },
                  { type: 'string', const: 'preset_15597c02f5c4', title: 'Pastel dream' },
                  { type: 'string', const: 'preset_fa5bb8c04327', title: 'Vintage sepia' },
                  { type: 'string', const: 'preset_c0faf4ba24df', title: 'Blueprint' },
                  { type: 'string', const: 'preset_b20f8406d0c1', title: 'Pop art' },
                  { type: 'string', const: 'preset_9f8780c4e5f8', title: 'Film noir' },
                  { type: 'string', const: 'preset_b193be638603', title: 'Autumn' },
                  { type: 'string', const: 'preset_deb2dcd89e62', title: 'Ocean' },
                  { type: 'string', const: 'preset_da1f2286ea3e', title: 'Forest' },
                  { type: 'string', const: 'preset_6183f71dffd2', title: 'Sunset' },
                  { type: 'string', const: 'preset_81db7b59151f', title: 'Minimal' },
                  { type: 'string', const: 'preset_3cb6b0426cad', title: 'Cyberpunk' },
                ],
              },
              output_format: {
                description:
                  'Default png (lossless). webp, avif and jpeg are lossy and a small fraction of the bytes; avif is the smallest and the slowest to write.',
                type: 'string',
                enum: ['png', 'webp', 'avif', 'jpeg'],
              },
            },
            additionalProperties: false,
            title: 'local',
          },
        },
        additionalProperties: false,
      },
      options: { $ref: '#/$defs/JobOptions' },
    },
    $defs: {
      InputFile: {
        type: 'object',
        properties: {
          url: {
            type: 'string',
            maxLength: 2048,
            format: 'uri',
            description: 'Public URL of the input file.',
          },
        },
        required: ['url'],
      },
      ProviderOptions: {
        type: 'object',
        propertyNames: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9_-]*$' },
        additionalProperties: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} },
        description:
          'Provider-native overrides keyed by provider id, each an object of provider fields. Per-model fields: `GET /tools/{tool_key}?model=<model>`.',
      },
      JobOptions: {
        type: 'object',
        properties: {
          webhook_url: {
            description: 'Completion callback (Standard Webhooks, signed).',
            type: 'string',
            maxLength: 2048,
            format: 'uri',
          },
          cache: {
            description:
              'Default true: identical inputs are served from the result cache at no cost. `false` always runs the job.',
            type: 'boolean',
          },
        },
      },
    },
  },
  'image/local-edit': {
    type: 'object',
    properties: {
      model: {
        description: 'Model id, or provider-pinned `<provider>:<model>`.',
        type: 'string',
        minLength: 1,
        maxLength: 200,
        pattern: '^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$',
        default: 'local-edit',
      },
      prompt: { type: 'string', maxLength: 2000 },
      aspect_ratio: {
        type: 'string',
        pattern: '^[1-9]\\d{0,3}:[1-9]\\d{0,3}$',
        description: 'Form `<w>:<h>`, for example `16:9`.',
      },
      files: {
        description: 'Source images for editing or reference (max 10).',
        maxItems: 1,
        type: 'array',
        items: { $ref: '#/$defs/InputFile' },
        minItems: 1,
      },
      provider_options: {
        type: 'object',
        description:
          'Provider-native fields for Local image edit, keyed by provider id. Used only when that provider runs the job.',
        properties: {
          local: {
            type: 'object',
            properties: {
              operations: {
                minItems: 1,
                maxItems: 20,
                type: 'array',
                items: {
                  oneOf: [
                    {
                      type: 'object',
                      properties: {
                        op: { type: 'string', const: 'resize' },
                        width: { type: 'integer', minimum: 1, maximum: 8192 },
                        height: { type: 'integer', minimum: 1, maximum: 8192 },
                        fit: {
                          default: 'cover',
                          type: 'string',
                          enum: ['cover', 'contain', 'fill', 'inside', 'outside'],
                        },
                      },
                      required: ['op'],
                    },
                    {
                      type: 'object',
                      properties: {
                        op: { type: 'string', const: 'crop' },
                        left: { type: 'integer', minimum: 0, maximum: 9007199254740991 },
                        top: { type: 'integer', minimum: 0, maximum: 9007199254740991 },
                        width: { type: 'integer', minimum: 1, maximum: 8192 },
                        height: { type: 'integer', minimum: 1, maximum: 8192 },
                      },
                      required: ['op', 'left', 'top', 'width', 'height'],
                    },
                    {
                      type: 'object',
                      properties: {
                        op: { type: 'string', const: 'rotate' },
                        degrees: { type: 'number', minimum: -360, maximum: 360 },
                      },
                      required: ['op', 'degrees'],
                    },
                    {
                      type: 'object',
                      properties: {
                        op: { type: 'string', const: 'format' },
                        to: { type: 'string', enum: ['png', 'jpeg', 'webp', 'avif'] },
                        quality: { type: 'integer', minimum: 1, maximum: 100 },
                      },
                      required: ['op', 'to'],
                    },
                    {
                      type: 'object',
                      properties: { op: { type: 'string', const: 'grayscale' } },
                      required: ['op'],
                    },
                    {
                      type: 'object',
                      properties: {
                        op: { type: 'string', const: 'blur' },
                        sigma: { default: 3, type: 'number', minimum: 0.3, maximum: 100 },
                      },
                      required: ['op'],
                    },
                    {
                      type: 'object',
                      properties: {
                        op: { type: 'string', const: 'tint' },
                        color: { type: 'string', pattern: '^#[0-9a-fA-F]{6}$' },
                      },
                      required: ['op', 'color'],
                    },
                  ],
                },
                description: 'Applied in order to files[0], for example [{"op":"grayscale"}].',
              },
            },
            required: ['operations'],
            additionalProperties: false,
            title: 'local',
          },
        },
        additionalProperties: false,
      },
      options: { $ref: '#/$defs/JobOptions' },
    },
    $defs: {
      InputFile: {
        type: 'object',
        properties: {
          url: {
            type: 'string',
            maxLength: 2048,
            format: 'uri',
            description: 'Public URL of the input file.',
          },
        },
        required: ['url'],
      },
      ProviderOptions: {
        type: 'object',
        propertyNames: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9_-]*$' },
        additionalProperties: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} },
        description:
          'Provider-native overrides keyed by provider id, each an object of provider fields. Per-model fields: `GET /tools/{tool_key}?model=<model>`.',
      },
      JobOptions: {
        type: 'object',
        properties: {
          webhook_url: {
            description: 'Completion callback (Standard Webhooks, signed).',
            type: 'string',
            maxLength: 2048,
            format: 'uri',
          },
          cache: {
            description:
              'Default true: identical inputs are served from the result cache at no cost. `false` always runs the job.',
            type: 'boolean',
          },
        },
      },
    },
  },
  'image/local-upscale': {
    type: 'object',
    properties: {
      model: {
        description: 'Model id, or provider-pinned `<provider>:<model>`.',
        type: 'string',
        minLength: 1,
        maxLength: 200,
        pattern: '^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$',
        default: 'local-upscale',
      },
      files: {
        description: 'Source images for editing or reference (max 10).',
        maxItems: 1,
        type: 'array',
        items: { $ref: '#/$defs/InputFile' },
        minItems: 1,
      },
      provider_options: {
        type: 'object',
        description:
          'Provider-native fields for Local upscale (2x/4x), keyed by provider id. Used only when that provider runs the job.',
        properties: {
          local: {
            type: 'object',
            properties: {
              factor: {
                description: '2 (default) or 4.',
                anyOf: [
                  { type: 'number', const: 2 },
                  { type: 'number', const: 4 },
                ],
              },
              output_format: {
                description:
                  "Default: the input's format (PNG for formats other than PNG, JPEG and WebP). webp, avif and jpeg are lossy and far smaller than PNG.",
                type: 'string',
                enum: ['png', 'webp', 'avif', 'jpeg'],
              },
            },
            additionalProperties: false,
            title: 'local',
          },
        },
        additionalProperties: false,
      },
      options: { $ref: '#/$defs/JobOptions' },
    },
    $defs: {
      InputFile: {
        type: 'object',
        properties: {
          url: {
            type: 'string',
            maxLength: 2048,
            format: 'uri',
            description: 'Public URL of the input file.',
          },
        },
        required: ['url'],
      },
      ProviderOptions: {
        type: 'object',
        propertyNames: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9_-]*$' },
        additionalProperties: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} },
        description:
          'Provider-native overrides keyed by provider id, each an object of provider fields. Per-model fields: `GET /tools/{tool_key}?model=<model>`.',
      },
      JobOptions: {
        type: 'object',
        properties: {
          webhook_url: {
            description: 'Completion callback (Standard Webhooks, signed).',
            type: 'string',
            maxLength: 2048,
            format: 'uri',
          },
          cache: {
            description:
              'Default true: identical inputs are served from the result cache at no cost. `false` always runs the job.',
            type: 'boolean',
          },
        },
      },
    },
  },
  'image/flux-1.1-pro': {
    type: 'object',
    properties: {
      model: {
        description: 'Model id, or provider-pinned `<provider>:<model>`.',
        type: 'string',
        minLength: 1,
        maxLength: 200,
        pattern: '^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$',
        default: 'flux-1.1-pro',
      },
      prompt: { type: 'string', maxLength: 2000 },
      aspect_ratio: {
        type: 'string',
        pattern: '^[1-9]\\d{0,3}:[1-9]\\d{0,3}$',
        description: 'Form `<w>:<h>`, for example `16:9`.',
      },
      files: {
        description: 'Source images for editing or reference (max 10).',
        maxItems: 10,
        type: 'array',
        items: { $ref: '#/$defs/InputFile' },
      },
      provider_options: {
        type: 'object',
        description:
          'Provider-native fields for FLUX1.1 [pro], keyed by provider id. Used only when that provider runs the job.',
        properties: {
          fal: {
            type: 'object',
            properties: {
              seed: {
                type: 'integer',
                minimum: 0,
                maximum: 2147483647,
                description: 'Same seed, same output.',
              },
              num_images: { type: 'integer', minimum: 1, maximum: 4, description: 'Images per request.' },
              safety_tolerance: {
                enum: ['1', '2', '3', '4', '5', '6'],
                description: '1 strictest, 6 most permissive.',
              },
              output_format: { enum: ['jpeg', 'png'] },
              raw: { type: 'boolean', description: 'Less processed, more natural images (ultra only).' },
            },
            additionalProperties: false,
            title: 'fal',
          },
          replicate: {
            type: 'object',
            properties: {
              seed: {
                type: 'integer',
                minimum: 0,
                maximum: 2147483647,
                description: 'Same seed, same output.',
              },
              num_outputs: { type: 'integer', minimum: 1, maximum: 4, description: 'Images per request.' },
              num_inference_steps: {
                type: 'integer',
                minimum: 1,
                maximum: 50,
                description: 'Denoising steps.',
              },
              guidance: { type: 'number', minimum: 0, maximum: 10, description: 'Prompt adherence.' },
              output_format: { enum: ['webp', 'jpg', 'png'] },
              output_quality: { type: 'integer', minimum: 0, maximum: 100 },
              disable_safety_checker: { type: 'boolean' },
              go_fast: { type: 'boolean' },
              megapixels: { enum: ['1', '0.25'] },
            },
            additionalProperties: false,
            title: 'replicate',
          },
        },
        additionalProperties: false,
      },
      options: { $ref: '#/$defs/JobOptions' },
    },
    $defs: {
      InputFile: {
        type: 'object',
        properties: {
          url: {
            type: 'string',
            maxLength: 2048,
            format: 'uri',
            description: 'Public URL of the input file.',
          },
        },
        required: ['url'],
      },
      ProviderOptions: {
        type: 'object',
        propertyNames: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9_-]*$' },
        additionalProperties: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} },
        description:
          'Provider-native overrides keyed by provider id, each an object of provider fields. Per-model fields: `GET /tools/{tool_key}?model=<model>`.',
      },
      JobOptions: {
        type: 'object',
        properties: {
          webhook_url: {
            description: 'Completion callback (Standard Webhooks, signed).',
            type: 'string',
            maxLength: 2048,
            format: 'uri',
          },
          cache: {
            description:
              'Default true: identical inputs are served from the result cache at no cost. `false` always runs the job.',
            type: 'boolean',
          },
        },
      },
    },
  },
  'image/recraft-v3': {
    type: 'object',
    properties: {
      model: {
        description: 'Model id, or provider-pinned `<provider>:<model>`.',
        type: 'string',
        minLength: 1,
        maxLength: 200,
        pattern: '^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$',
        default: 'recraft-v3',
      },
      prompt: { type: 'string', maxLength: 2000 },
      aspect_ratio: {
        type: 'string',
        pattern: '^[1-9]\\d{0,3}:[1-9]\\d{0,3}$',
        description: 'Form `<w>:<h>`, for example `16:9`.',
      },
      files: {
        description: 'Source images for editing or reference (max 10).',
        maxItems: 10,
        type: 'array',
        items: { $ref: '#/$defs/InputFile' },
      },
      provider_options: {
        type: 'object',
        description:
          'Provider-native fields for Recraft V3, keyed by provider id. Used only when that provider runs the job.',
        properties: {
          fal: {
            type: 'object',
            properties: {
              style: {
                type: 'string',
                maxLength: 100,
                description: 'A style name the model documents, e.g. realistic_image.',
              },
              colors: {
                type: 'array',
                maxItems: 5,
                items: {
                  type: 'object',
                  properties: { r: { type: 'integer' }, g: { type: 'integer' }, b: { type: 'integer' } },
                },
              },
            },
            additionalProperties: false,
            title: 'fal',
          },
          replicate: {
            type: 'object',
            properties: {
              style: { type: 'string', maxLength: 100 },
              style_type: { type: 'string', maxLength: 40 },
              magic_prompt_option: { enum: ['Auto', 'On', 'Off'] },
            },
            additionalProperties: false,
            title: 'replicate',
          },
        },
        additionalProperties: false,
      },
      options: { $ref: '#/$defs/JobOptions' },
    },
    $defs: {
      InputFile: {
        type: 'object',
        properties: {
          url: {
            type: 'string',
            maxLength: 2048,
            format: 'uri',
            description: 'Public URL of the input file.',
          },
        },
        required: ['url'],
      },
      ProviderOptions: {
        type: 'object',
        propertyNames: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9_-]*$' },
        additionalProperties: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} },
        description:
          'Provider-native overrides keyed by provider id, each an object of provider fields. Per-model fields: `GET /tools/{tool_key}?model=<model>`.',
      },
      JobOptions: {
        type: 'object',
        properties: {
          webhook_url: {
            description: 'Completion callback (Standard Webhooks, signed).',
            type: 'string',
            maxLength: 2048,
            format: 'uri',
          },
          cache: {
            description:
              'Default true: identical inputs are served from the result cache at no cost. `false` always runs the job.',
            type: 'boolean',
          },
        },
      },
    },
  },
  'video/local-motion': {
    type: 'object',
    properties: {
      model: {
        description: 'Model id, or provider-pinned `<provider>:<model>`.',
        type: 'string',
        minLength: 1,
        maxLength: 200,
        pattern: '^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$',
        default: 'local-motion',
      },
      prompt: { type: 'string', maxLength: 10000 },
      duration: {
        description: 'Seconds, 1 to 60.',
        type: 'number',
        exclusiveMinimum: 0,
        minimum: 1,
        maximum: 60,
      },
      aspect_ratio: {
        type: 'string',
        pattern: '^[1-9]\\d{0,3}:[1-9]\\d{0,3}$',
        description: 'Form `<w>:<h>`, for example `16:9`.',
      },
      files: {
        description:
          'Start frame (image-to-video), or a video and an audio file (lipsync). An image routes to the image-to-video variant of the same model family.',
        maxItems: 10,
        type: 'array',
        items: { $ref: '#/$defs/InputFile' },
      },
      provider_options: {
        type: 'object',
        description:
          'Provider-native fields for Local motion (text-to-video sketch), keyed by provider id. Used only when that provider runs the job.',
        properties: {
          local: {
            type: 'object',
            properties: {
              seed: {
                type: 'integer',
                minimum: 0,
                maximum: 4294967295,
                description: 'Same seed, same result.',
              },
              motion: {
                description: 'Camera move; default zoom-in.',
                type: 'string',
                enum: ['zoom-in', 'zoom-out', 'pan-left', 'pan-right'],
              },
              fps: {
                description: 'Frames per second; default 24.',
                type: 'integer',
                minimum: 10,
                maximum: 30,
              },
            },
            additionalProperties: false,
            title: 'local',
          },
        },
        additionalProperties: false,
      },
      options: { $ref: '#/$defs/JobOptions' },
    },
    $defs: {
      InputFile: {
        type: 'object',
        properties: {
          url: {
            type: 'string',
            maxLength: 2048,
            format: 'uri',
            description: 'Public URL of the input file.',
          },
        },
        required: ['url'],
      },
      ProviderOptions: {
        type: 'object',
        propertyNames: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9_-]*$' },
        additionalProperties: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} },
        description:
          'Provider-native overrides keyed by provider id, each an object of provider fields. Per-model fields: `GET /tools/{tool_key}?model=<model>`.',
      },
      JobOptions: {
        type: 'object',
        properties: {
          webhook_url: {
            description: 'Completion callback (Standard Webhooks, signed).',
            type: 'string',
            maxLength: 2048,
            format: 'uri',
          },
          cache: {
            description:
              'Default true: identical inputs are served from the result cache at no cost. `false` always runs the job.',
            type: 'boolean',
          },
        },
      },
    },
  },
  'video/kling-2.1-master': {
    type: 'object',
    properties: {
      model: {
        description: 'Model id, or provider-pinned `<provider>:<model>`.',
        type: 'string',
        minLength: 1,
        maxLength: 200,
        pattern: '^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$',
        default: 'kling-2.1-master',
      },
      prompt: { type: 'string', maxLength: 10000 },
      duration: { description: 'Seconds: 5, 10.', type: 'number', exclusiveMinimum: 0, enum: [5, 10] },
      aspect_ratio: {
        type: 'string',
        pattern: '^[1-9]\\d{0,3}:[1-9]\\d{0,3}$',
        description: 'Aspect ratios: 16:9, 9:16, 1:1.',
        enum: ['16:9', '9:16', '1:1'],
      },
      files: {
        description:
          'Start frame (image-to-video), or a video and an audio file (lipsync). An image routes to the image-to-video variant of the same model family.',
        maxItems: 10,
        type: 'array',
        items: { $ref: '#/$defs/InputFile' },
      },
      provider_options: {
        type: 'object',
        description:
          'Provider-native fields for Kling 2.1 Master, keyed by provider id. Used only when that provider runs the job.',
        properties: {
          fal: {
            type: 'object',
            properties: {
              negative_prompt: { type: 'string', maxLength: 2000, description: 'What to keep out.' },
              cfg_scale: { type: 'number', minimum: 0, maximum: 1, description: 'Prompt adherence.' },
              seed: {
                type: 'integer',
                minimum: 0,
                maximum: 2147483647,
                description: 'Same seed, same output.',
              },
              prompt_optimizer: { type: 'boolean' },
              resolution: { enum: ['480p', '540p', '580p', '720p', '768p', '1080p'] },
            },
            additionalProperties: false,
            title: 'fal',
          },
        },
        additionalProperties: false,
      },
      options: { $ref: '#/$defs/JobOptions' },
    },
    $defs: {
      InputFile: {
        type: 'object',
        properties: {
          url: {
            type: 'string',
            maxLength: 2048,
            format: 'uri',
            description: 'Public URL of the input file.',
          },
        },
        required: ['url'],
      },
      ProviderOptions: {
        type: 'object',
        propertyNames: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9_-]*$' },
        additionalProperties: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} },
        description:
          'Provider-native overrides keyed by provider id, each an object of provider fields. Per-model fields: `GET /tools/{tool_key}?model=<model>`.',
      },
      JobOptions: {
        type: 'object',
        properties: {
          webhook_url: {
            description: 'Completion callback (Standard Webhooks, signed).',
            type: 'string',
            maxLength: 2048,
            format: 'uri',
          },
          cache: {
            description:
              'Default true: identical inputs are served from the result cache at no cost. `false` always runs the job.',
            type: 'boolean',
          },
        },
      },
    },
  },
  'speech/local-flite': {
    type: 'object',
    properties: {
      model: {
        description: 'Model id, or provider-pinned `<provider>:<model>`.',
        type: 'string',
        minLength: 1,
        maxLength: 200,
        pattern: '^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$',
        default: 'local-flite',
      },
      text: { type: 'string', minLength: 1, maxLength: 10000, description: '1 to 10,000 characters.' },
      voice: { description: 'A voice name or a preset id.', type: 'string', minLength: 1, maxLength: 200 },
      provider_options: {
        type: 'object',
        description:
          'Provider-native fields for Flite (local speech), keyed by provider id. Used only when that provider runs the job.',
        properties: {
          local: {
            type: 'object',
            properties: {
              rate: { description: 'Speaking rate; 1 is normal.', type: 'number', minimum: 0.5, maximum: 2 },
            },
            additionalProperties: false,
            title: 'local',
          },
        },
        additionalProperties: false,
      },
      options: { $ref: '#/$defs/JobOptions' },
    },
    required: ['text'],
    $defs: {
      ProviderOptions: {
        type: 'object',
        propertyNames: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9_-]*$' },
        additionalProperties: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} },
        description:
          'Provider-native overrides keyed by provider id, each an object of provider fields. Per-model fields: `GET /tools/{tool_key}?model=<model>`.',
      },
      JobOptions: {
        type: 'object',
        properties: {
          webhook_url: {
            description: 'Completion callback (Standard Webhooks, signed).',
            type: 'string',
            maxLength: 2048,
            format: 'uri',
          },
          cache: {
            description:
              'Default true: identical inputs are served from the result cache at no cost. `false` always runs the job.',
            type: 'boolean',
          },
        },
      },
    },
  },
  'speech/eleven-multilingual-v2': {
    type: 'object',
    properties: {
      model: {
        description: 'Model id, or provider-pinned `<provider>:<model>`.',
        type: 'string',
        minLength: 1,
        maxLength: 200,
        pattern: '^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$',
        default: 'eleven-multilingual-v2',
      },
      text: { type: 'string', minLength: 1, maxLength: 10000, description: '1 to 10,000 characters.' },
      voice: { description: 'A voice name or a preset id.', type: 'string', minLength: 1, maxLength: 200 },
      provider_options: {
        type: 'object',
        description:
          'Provider-native fields for ElevenLabs Multilingual v2, keyed by provider id. Used only when that provider runs the job.',
        properties: {
          elevenlabs: {
            type: 'object',
            properties: {
              voice_settings: {
                type: 'object',
                properties: {
                  stability: { type: 'number', minimum: 0, maximum: 1 },
                  similarity_boost: { type: 'number', minimum: 0, maximum: 1 },
                  style: { type: 'number', minimum: 0, maximum: 1 },
                  use_speaker_boost: { type: 'boolean' },
                  speed: { type: 'number', minimum: 0.7, maximum: 1.2 },
                },
                additionalProperties: false,
              },
              language_code: { type: 'string', maxLength: 10 },
              seed: { type: 'integer', minimum: 0, maximum: 4294967295 },
              output_format: {
                enum: [
                  'mp3_44100_128',
                  'mp3_44100_192',
                  'mp3_22050_32',
                  'pcm_16000',
                  'pcm_44100',
                  'opus_48000_128',
                ],
              },
            },
            additionalProperties: false,
            title: 'elevenlabs',
          },
        },
        additionalProperties: false,
      },
      options: { $ref: '#/$defs/JobOptions' },
    },
    required: ['text'],
    $defs: {
      ProviderOptions: {
        type: 'object',
        propertyNames: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9_-]*$' },
        additionalProperties: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} },
        description:
          'Provider-native overrides keyed by provider id, each an object of provider fields. Per-model fields: `GET /tools/{tool_key}?model=<model>`.',
      },
      JobOptions: {
        type: 'object',
        properties: {
          webhook_url: {
            description: 'Completion callback (Standard Webhooks, signed).',
            type: 'string',
            maxLength: 2048,
            format: 'uri',
          },
          cache: {
            description:
              'Default true: identical inputs are served from the result cache at no cost. `false` always runs the job.',
            type: 'boolean',
          },
        },
      },
    },
  },
  'music/local-procedural-music': {
    type: 'object',
    properties: {
      model: {
        description: 'Model id, or provider-pinned `<provider>:<model>`.',
        type: 'string',
        minLength: 1,
        maxLength: 200,
        pattern: '^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$',
        default: 'local-procedural-music',
      },
      prompt: { type: 'string', minLength: 1, maxLength: 1000, description: '1 to 1000 characters.' },
      duration: { description: 'Whole seconds, 1 to 600.', type: 'integer', minimum: 1, maximum: 600 },
      provider_options: {
        type: 'object',
        description:
          'Provider-native fields for Local procedural music, keyed by provider id. Used only when that provider runs the job.',
        properties: {
          local: {
            type: 'object',
            properties: {
              seed: {
                type: 'integer',
                minimum: 0,
                maximum: 4294967295,
                description: 'Same seed, same result.',
              },
              tempo: {
                description: 'Beats per minute; default from the prompt.',
                type: 'integer',
                minimum: 40,
                maximum: 220,
              },
              format: { description: 'Default mp3.', type: 'string', enum: ['mp3', 'wav'] },
            },
            additionalProperties: false,
            title: 'local',
          },
        },
        additionalProperties: false,
      },
      options: { $ref: '#/$defs/JobOptions' },
    },
    required: ['prompt'],
    $defs: {
      ProviderOptions: {
        type: 'object',
        propertyNames: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9_-]*$' },
        additionalProperties: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} },
        description:
          'Provider-native overrides keyed by provider id, each an object of provider fields. Per-model fields: `GET /tools/{tool_key}?model=<model>`.',
      },
      JobOptions: {
        type: 'object',
        properties: {
          webhook_url: {
            description: 'Completion callback (Standard Webhooks, signed).',
            type: 'string',
            maxLength: 2048,
            format: 'uri',
          },
          cache: {
            description:
              'Default true: identical inputs are served from the result cache at no cost. `false` always runs the job.',
            type: 'boolean',
          },
        },
      },
    },
  },
  'transcription/local-pocketsphinx': {
    type: 'object',
    properties: {
      model: {
        description: 'Model id, or provider-pinned `<provider>:<model>`.',
        type: 'string',
        minLength: 1,
        maxLength: 200,
        pattern: '^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$',
        default: 'local-pocketsphinx',
      },
      audio_url: { type: 'string', maxLength: 2048, format: 'uri' },
      language: {
        description: 'Language code (BCP 47), for example `en` or `pt-BR`.',
        type: 'string',
        maxLength: 35,
        pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$',
      },
      provider_options: {
        type: 'object',
        description:
          'Provider-native fields for PocketSphinx (local transcription), keyed by provider id. Used only when that provider runs the job.',
        properties: {
          local: { type: 'object', properties: {}, additionalProperties: false, title: 'local' },
        },
        additionalProperties: false,
      },
      options: { $ref: '#/$defs/JobOptions' },
    },
    required: ['audio_url'],
    $defs: {
      ProviderOptions: {
        type: 'object',
        propertyNames: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9_-]*$' },
        additionalProperties: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} },
        description:
          'Provider-native overrides keyed by provider id, each an object of provider fields. Per-model fields: `GET /tools/{tool_key}?model=<model>`.',
      },
      JobOptions: {
        type: 'object',
        properties: {
          webhook_url: {
            description: 'Completion callback (Standard Webhooks, signed).',
            type: 'string',
            maxLength: 2048,
            format: 'uri',
          },
          cache: {
            description:
              'Default true: identical inputs are served from the result cache at no cost. `false` always runs the job.',
            type: 'boolean',
          },
        },
      },
    },
  },
  'ffmpeg/ffmpeg': {
    type: 'object',
    properties: {
      model: {
        description: 'Model id, or provider-pinned `<provider>:<model>`.',
        type: 'string',
        minLength: 1,
        maxLength: 200,
        pattern: '^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$',
        default: 'ffmpeg',
      },
      files: {
        minItems: 1,
        maxItems: 10,
        type: 'array',
        items: { $ref: '#/$defs/InputFile' },
        description: 'Input media (1 to 10).',
      },
      operations: {
        minItems: 1,
        maxItems: 20,
        type: 'array',
        items: { $ref: '#/$defs/FfmpegOperation' },
        description: '1 to 20 operations, applied in order.',
      },
      options: { $ref: '#/$defs/JobOptions' },
      provider_options: {
        type: 'object',
        description:
          'Provider-native fields for ffmpeg, keyed by provider id. Used only when that provider runs the job.',
        properties: {
          local: { type: 'object', properties: {}, additionalProperties: false, title: 'local' },
        },
        additionalProperties: false,
      },
    },
    required: ['files', 'operations'],
    $defs: {
      InputFile: {
        type: 'object',
        properties: {
          url: {
            type: 'string',
            maxLength: 2048,
            format: 'uri',
            description: 'Public URL of the input file.',
          },
        },
        required: ['url'],
      },
      FfmpegOperation: {
        oneOf: [
          { $ref: '#/$defs/FfmpegTranscode' },
          { $ref: '#/$defs/FfmpegResize' },
          { $ref: '#/$defs/FfmpegTrim' },
          { $ref: '#/$defs/FfmpegConcat' },
          { $ref: '#/$defs/FfmpegExtractAudio' },
          { $ref: '#/$defs/FfmpegThumbnail' },
          { $ref: '#/$defs/FfmpegGif' },
        ],
      },
      FfmpegTranscode: {
        type: 'object',
        properties: {
          op: { type: 'string', const: 'transcode' },
          format: { type: 'string', enum: ['mp4', 'webm', 'mov', 'mkv', 'mp3', 'wav', 'ogg', 'm4a', 'flac'] },
          video_codec: { type: 'string', enum: ['h264', 'h265', 'vp9', 'av1', 'copy'] },
          audio_codec: {
            type: 'string',
            enum: ['aac', 'mp3', 'opus', 'vorbis', 'flac', 'pcm_s16le', 'copy'],
          },
        },
        required: ['op', 'format'],
        description: 'Re-encode into another container and codecs.',
      },
      FfmpegResize: {
        type: 'object',
        properties: {
          op: { type: 'string', const: 'resize' },
          width: { type: 'integer', minimum: 1, maximum: 8192 },
          height: { type: 'integer', minimum: 1, maximum: 8192 },
          fit: { default: 'cover', $ref: '#/$defs/FitMode' },
        },
        required: ['op'],
        description: 'Scale; with one side only, the other keeps the aspect ratio.',
      },
      FitMode: { type: 'string', enum: ['contain', 'cover', 'stretch'] },
      FfmpegTrim: {
        type: 'object',
        properties: {
          op: { type: 'string', const: 'trim' },
          start: { default: 0, description: 'Seconds from the start.', type: 'number', minimum: 0 },
          end: { description: 'Seconds from the start, after `start`.', type: 'number', exclusiveMinimum: 0 },
          duration: { description: 'Seconds to keep.', type: 'number', exclusiveMinimum: 0 },
        },
        required: ['op'],
        description: 'Keep `start` .. `end` (or `start` + `duration`).',
      },
      FfmpegConcat: {
        type: 'object',
        properties: { op: { type: 'string', const: 'concat' } },
        required: ['op'],
        description: 'Join all `files` in order. Must be the first operation.',
      },
      FfmpegExtractAudio: {
        type: 'object',
        properties: {
          op: { type: 'string', const: 'extract_audio' },
          format: { default: 'mp3', type: 'string', enum: ['mp3', 'wav', 'ogg', 'm4a', 'flac'] },
        },
        required: ['op'],
        description: 'Drop the picture, keep the sound.',
      },
      FfmpegThumbnail: {
        type: 'object',
        properties: {
          op: { type: 'string', const: 'thumbnail' },
          at: { default: 0, description: 'Second of the frame to grab.', type: 'number', minimum: 0 },
        },
        required: ['op'],
        description: 'One frame as a JPEG image.',
      },
      FfmpegGif: {
        type: 'object',
        properties: {
          op: { type: 'string', const: 'gif' },
          fps: { default: 10, type: 'integer', minimum: 1, maximum: 30 },
          width: { default: 480, type: 'integer', minimum: 16, maximum: 1920 },
        },
        required: ['op'],
        description: 'An animated GIF.',
      },
      JobOptions: {
        type: 'object',
        properties: {
          webhook_url: {
            description: 'Completion callback (Standard Webhooks, signed).',
            type: 'string',
            maxLength: 2048,
            format: 'uri',
          },
          cache: {
            description:
              'Default true: identical inputs are served from the result cache at no cost. `false` always runs the job.',
            type: 'boolean',
          },
        },
      },
    },
  },
  'render/local-render': {
    type: 'object',
    properties: {
      model: {
        description: 'Model id, or provider-pinned `<provider>:<model>`.',
        type: 'string',
        minLength: 1,
        maxLength: 200,
        pattern: '^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$',
        default: 'local-render',
      },
      width: { default: 1280, type: 'integer', minimum: 16, maximum: 3840 },
      height: { default: 720, type: 'integer', minimum: 16, maximum: 3840 },
      fps: { default: 30, type: 'integer', minimum: 1, maximum: 60 },
      duration: { type: 'number', exclusiveMinimum: 0, maximum: 600, description: 'Seconds, up to 600.' },
      background: { default: '#000000', type: 'string', pattern: '^#[0-9a-fA-F]{6}$' },
      format: {
        default: 'mp4',
        description: 'Still formats (png, jpg) render the first frame.',
        type: 'string',
        enum: ['mp4', 'webm', 'gif', 'png', 'jpg'],
      },
      layers: { minItems: 1, maxItems: 50, type: 'array', items: { $ref: '#/$defs/RenderLayer' } },
      options: { $ref: '#/$defs/JobOptions' },
      provider_options: {
        type: 'object',
        description:
          'Provider-native fields for Local timeline render, keyed by provider id. Used only when that provider runs the job.',
        properties: {
          local: { type: 'object', properties: {}, additionalProperties: false, title: 'local' },
        },
        additionalProperties: false,
      },
    },
    required: ['duration', 'layers'],
    $defs: {
      RenderLayer: {
        oneOf: [
          {
            type: 'object',
            properties: {
              type: { type: 'string', const: 'image' },
              url: { type: 'string', maxLength: 2048, format: 'uri' },
              start: { default: 0, description: 'Second the layer appears.', type: 'number', minimum: 0 },
              duration: {
                description: 'Seconds shown; until the end when absent.',
                type: 'number',
                exclusiveMinimum: 0,
              },
              x: { default: 0, type: 'integer', minimum: -8192, maximum: 8192 },
              y: { default: 0, type: 'integer', minimum: -8192, maximum: 8192 },
              width: {
                description: 'Pixels; the canvas width when absent.',
                type: 'integer',
                minimum: 1,
                maximum: 8192,
              },
              height: {
                description: 'Pixels; the canvas height when absent.',
                type: 'integer',
                minimum: 1,
                maximum: 8192,
              },
              fit: { default: 'cover', $ref: '#/$defs/FitMode' },
            },
            required: ['type', 'url'],
          },
          {
            type: 'object',
            properties: {
              type: { type: 'string', const: 'video' },
              url: { type: 'string', maxLength: 2048, format: 'uri' },
              start: { default: 0, description: 'Second the layer appears.', type: 'number', minimum: 0 },
              duration: {
                description: 'Seconds shown; until the end when absent.',
                type: 'number',
                exclusiveMinimum: 0,
              },
              x: { default: 0, type: 'integer', minimum: -8192, maximum: 8192 },
              y: { default: 0, type: 'integer', minimum: -8192, maximum: 8192 },
              width: {
                description: 'Pixels; the canvas width when absent.',
                type: 'integer',
                minimum: 1,
                maximum: 8192,
              },
              height: {
                description: 'Pixels; the canvas height when absent.',
                type: 'integer',
                minimum: 1,
                maximum: 8192,
              },
              fit: { default: 'cover', $ref: '#/$defs/FitMode' },
              trim_start: {
                default: 0,
                description: 'Seconds skipped at the start of the source.',
                type: 'number',
                minimum: 0,
              },
              volume: { default: 1, type: 'number', minimum: 0, maximum: 2 },
            },
            required: ['type', 'url'],
          },
          {
            type: 'object',
            properties: {
              type: { type: 'string', const: 'audio' },
              url: { type: 'string', maxLength: 2048, format: 'uri' },
              start: { default: 0, description: 'Second the layer appears.', type: 'number', minimum: 0 },
              duration: {
                description: 'Seconds shown; until the end when absent.',
                type: 'number',
                exclusiveMinimum: 0,
              },
              trim_start: {
                default: 0,
                description: 'Seconds skipped at the start of the source.',
                type: 'number',
                minimum: 0,
              },
              volume: { default: 1, type: 'number', minimum: 0, maximum: 2 },
            },
            required: ['type', 'url'],
          },
          {
            type: 'object',
            properties: {
              type: { type: 'string', const: 'text' },
              text: { type: 'string', minLength: 1, maxLength: 500 },
              start: { default: 0, description: 'Second the layer appears.', type: 'number', minimum: 0 },
              duration: {
                description: 'Seconds shown; until the end when absent.',
                type: 'number',
                exclusiveMinimum: 0,
              },
              x: { default: 0, type: 'integer', minimum: -8192, maximum: 8192 },
              y: { default: 0, type: 'integer', minimum: -8192, maximum: 8192 },
              font_size: { default: 48, type: 'integer', minimum: 8, maximum: 400 },
              color: { default: '#ffffff', type: 'string', pattern: '^#[0-9a-fA-F]{6}$' },
              align: { default: 'center', type: 'string', enum: ['left', 'center', 'right'] },
            },
            required: ['type', 'text'],
          },
        ],
        description: 'Layers are drawn in order: later layers on top.',
      },
      FitMode: { type: 'string', enum: ['contain', 'cover', 'stretch'] },
      JobOptions: {
        type: 'object',
        properties: {
          webhook_url: {
            description: 'Completion callback (Standard Webhooks, signed).',
            type: 'string',
            maxLength: 2048,
            format: 'uri',
          },
          cache: {
            description:
              'Default true: identical inputs are served from the result cache at no cost. `false` always runs the job.',
            type: 'boolean',
          },
        },
      },
    },
  },
  'pipeline/pipeline': {
    type: 'object',
    properties: {
      model: {
        description: 'Model id, or provider-pinned `<provider>:<model>`.',
        type: 'string',
        minLength: 1,
        maxLength: 200,
        pattern: '^[A-Za-z0-9][A-Za-z0-9._:/@+-]*$',
        default: 'pipeline',
      },
      steps: {
        minItems: 1,
        maxItems: 10,
        type: 'array',
        items: { $ref: '#/$defs/PipelineStep' },
        description: '1 to 10 steps.',
      },
      options: { $ref: '#/$defs/JobOptions' },
      provider_options: {
        type: 'object',
        description:
          'Provider-native fields for Pipeline, keyed by provider id. Used only when that provider runs the job.',
        properties: {
          local: { type: 'object', properties: {}, additionalProperties: false, title: 'local' },
        },
        additionalProperties: false,
      },
    },
    required: ['steps'],
    $defs: {
      PipelineStep: {
        type: 'object',
        properties: {
          id: { type: 'string', pattern: '^[a-z][a-z0-9_]{0,31}$' },
          tool: {
            type: 'string',
            enum: ['image', 'video', 'speech', 'music', 'transcription', 'ffmpeg', 'render'],
          },
          needs: {
            description:
              'Ids of other steps this step waits for, besides those its input refers to. A step that does not depend on a failed step still runs.',
            maxItems: 9,
            type: 'array',
            items: { type: 'string', pattern: '^[a-z][a-z0-9_]{0,31}$' },
          },
          input: {
            type: 'object',
            propertyNames: { type: 'string' },
            additionalProperties: {},
            description:
              'The body of that tool (as its sugar route). Strings may contain `{{steps.<id>.output.url}}` or `{{steps.<id>.output.file_id}}` of another step: this step then waits for it.',
          },
        },
        required: ['id', 'tool', 'input'],
      },
      JobOptions: {
        type: 'object',
        properties: {
          webhook_url: {
            description: 'Completion callback (Standard Webhooks, signed).',
            type: 'string',
            maxLength: 2048,
            format: 'uri',
          },
          cache: {
            description:
              'Default true: identical inputs are served from the result cache at no cost. `false` always runs the job.',
            type: 'boolean',
          },
        },
      },
    },
  },
};

/** A served schema by `tool/model`; a copy, so a test cannot change what another one reads. */
export function catalogSchema(key: string): JsonSchema {
  const schema = CATALOG_SCHEMAS[key];
  if (!schema) throw new Error(`no catalog schema ${key}`);
  return structuredClone(schema);
}

export const CATALOG_KEYS = Object.keys(CATALOG_SCHEMAS);
