import type { ObjectSpec } from '../../../schema-form/field-spec.ts';
import { FieldGrid } from '../../../schema-form/fields/object-fields.tsx';
import { FoldAway } from './fold-away.tsx';

interface ProviderOptionsProps {
  spec: ObjectSpec;
  /** The provider that will run the job (pinned or first available), if any. */
  routed: string | null;
}

/**
 * `provider_options`, one folded group per provider of the model. Only the group of the provider
 * that runs the job is used by it; the others say so.
 */
export function ProviderOptions({ spec, routed }: ProviderOptionsProps) {
  // A provider without fields of its own for this model has nothing to fold away.
  const providers = spec.fields.filter(
    (field) => field.kind === 'object' && field.fields.some((f) => f.kind !== 'const'),
  );
  if (providers.length === 0) return null;
  return (
    <section aria-label="Provider options" className="flex flex-col gap-2">
      {providers.map((provider) => {
        const runs = provider.key === routed;
        return (
          <FoldAway
            key={provider.key}
            name={`provider_options.${provider.key}`}
            title={`${provider.key} options`}
            note={runs ? 'runs this job' : 'used only if it runs the job'}
          >
            {provider.kind === 'object' && (
              <FieldGrid spec={provider} name={`provider_options.${provider.key}`} />
            )}
          </FoldAway>
        );
      })}
    </section>
  );
}
