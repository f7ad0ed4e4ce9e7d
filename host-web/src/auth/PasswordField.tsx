import { Box, List, PasswordInput, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconPoint } from '@tabler/icons-react';
import { useId } from 'react';
import { PASSWORD_RULES } from './password-rules.ts';

/** A new-password input that shows the rule and ticks each part off as it is met. */
export function NewPasswordField({
  value,
  onChange,
  label = 'Password',
  error,
  autoFocus,
}: {
  value: string;
  onChange: (v: string) => void;
  label?: string;
  error?: string | null;
  autoFocus?: boolean;
}) {
  const rulesId = useId();
  return (
    <Box>
      <PasswordInput
        label={label}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        autoComplete="new-password"
        required
        autoFocus={autoFocus}
        maxLength={100}
        error={error || undefined}
        aria-describedby={rulesId}
      />
      <Box id={rulesId} mt={8}>
        <Text size="xs" c="dimmed" mb={4}>
          Your password needs:
        </Text>
        <List size="xs" spacing={2} center>
          {PASSWORD_RULES.map((rule) => {
            const met = rule.test(value);
            return (
              <List.Item
                key={rule.label}
                icon={
                  <ThemeIcon
                    size={16}
                    radius="xl"
                    color={met ? 'teal.8' : 'gray.6'}
                    variant={met ? 'filled' : 'light'}
                    aria-hidden
                  >
                    {met ? <IconCheck size={11} /> : <IconPoint size={11} />}
                  </ThemeIcon>
                }
              >
                <Text span size="xs" c={met ? 'var(--fb-success-text)' : 'dimmed'}>
                  {rule.label}
                  <VisuallyHidden>{met ? ' (done)' : ' (missing)'}</VisuallyHidden>
                </Text>
              </List.Item>
            );
          })}
        </List>
      </Box>
    </Box>
  );
}
