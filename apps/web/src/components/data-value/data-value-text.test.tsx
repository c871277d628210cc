import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { DataValueText } from './data-value-text';

describe('DataValueText', () => {
  it('shows a choice’s label instead of its code, and a number with its format’s decimals and unit', () => {
    render(
      <>
        <DataValueText dataType="boolean" format='{"0":"Stopped","1":"Running"}' value="1" unit="A" />
        <DataValueText dataType="readable" format='{"Decimals":2}' value="3.5" unit="m³/h" />
        <DataValueText dataType="readable" format="" value="" unit="m³/h" />
      </>,
    );
    expect(screen.getByText('Running')).toBeTruthy();
    expect(screen.queryByText(/Running A/)).toBeNull();
    expect(screen.getByText('3.50 m³/h')).toBeTruthy();
    expect(screen.getByText('—')).toBeTruthy();
  });
});
