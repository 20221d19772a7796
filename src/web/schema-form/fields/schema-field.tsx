import type { FieldSpec } from '../field-spec.ts';
import { useWidgetOverride } from '../widget-context.ts';
import { ArrayField } from './array-field.tsx';
import { AspectRatioInput } from './aspect-ratio-input.tsx';
import { BooleanInput } from './boolean-input.tsx';
import { ChoiceInput } from './choice-input.tsx';
import { FilesInput } from './files-input.tsx';
import { JsonInput } from './json-input.tsx';
import { NumberInput } from './number-input.tsx';
import { ObjectFields } from './object-fields.tsx';
import { TextInput } from './text-input.tsx';
import { UnionField } from './union-field.tsx';

/** One field of a generated form: the widget its kind needs, unless the host page draws it. */
export function SchemaField({ spec, name }: { spec: FieldSpec; name: string }) {
  const override = useWidgetOverride()?.({ spec, name });
  if (override !== undefined) return override;
  switch (spec.kind) {
    case 'text':
    case 'url':
      return <TextInput spec={spec} name={name} />;
    case 'aspect-ratio':
      return <AspectRatioInput spec={spec} name={name} />;
    case 'number':
      return <NumberInput spec={spec} name={name} />;
    case 'choice':
      return <ChoiceInput spec={spec} name={name} />;
    case 'boolean':
      return <BooleanInput spec={spec} name={name} />;
    case 'object':
      return <ObjectFields spec={spec} name={name} />;
    case 'array':
      return <ArrayField spec={spec} name={name} />;
    case 'files':
      return <FilesInput spec={spec} name={name} />;
    case 'union':
      return <UnionField spec={spec} name={name} />;
    case 'json':
      return <JsonInput spec={spec} name={name} />;
    case 'const':
      return null;
  }
}
