import { forwardRef, useState } from 'react';
import { FormField, type FormFieldProps } from '../../components/ui/form-field';

/**
 * A password input with a Show/Hide button: on a phone keyboard a typo in a hidden password
 * is the most common reason a sign-up or sign-in fails.
 */
export const PasswordField = forwardRef<HTMLInputElement, Omit<FormFieldProps, 'type' | 'trailing'>>(
  function PasswordField(props, ref) {
    const [visible, setVisible] = useState(false);
    return (
      <FormField
        ref={ref}
        {...props}
        type={visible ? 'text' : 'password'}
        // Keeps browsers from offering to autocorrect or capitalise a visible password.
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        trailing={
          <button
            type="button"
            onClick={() => setVisible((v) => !v)}
            aria-pressed={visible}
            aria-label={visible ? `Hide ${props.label.toLowerCase()}` : `Show ${props.label.toLowerCase()}`}
            className="min-h-11 min-w-16 rounded-lg px-3 text-sm font-semibold text-festive-700 hover:bg-cream-100"
          >
            {visible ? 'Hide' : 'Show'}
          </button>
        }
      />
    );
  },
);
