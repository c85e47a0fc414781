/**
 * The rjsf validator for forms drawn from a checked schema (lib/schema/tool-schema.ts): Ajv, one per
 * dialect (the page's CSP allows its code generation). lib/schema/validation.ts configures its
 * own Ajv the same way, so the form and the argument check agree.
 */
import type { ValidatorType } from '@rjsf/utils';
import { customizeValidator, type CustomValidatorOptionsType } from '@rjsf/validator-ajv8';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Dialect, SchemaCheck } from '../../lib/schema/tool-schema.ts';

const validators = new Map<Dialect, ValidatorType>();

export function validatorFor(check: Extract<SchemaCheck, { ok: true }>): ValidatorType {
  let validator = validators.get(check.dialect);
  if (validator === undefined) {
    // The cast: rjsf's `typeof Ajv` names ajv's CJS namespace rather than the class; at run time both are the constructor.
    const AjvClass = Ajv2020 as unknown as CustomValidatorOptionsType['AjvClass'];
    validator = check.dialect === '2020-12' ? customizeValidator({ AjvClass }) : customizeValidator();
    validators.set(check.dialect, validator);
  }
  return validator;
}
