/**
 * The create and edit bodies of a grid bot, named as the API names them: decimals arrive as
 * strings, flags as booleans, counts as integers. Every rule beyond types is checked by
 * config-validation.ts, which names each bad field the way the reference does.
 */
export interface GridBotParams {
  name?: string | null;
  pair?: string | null;
  upper_price?: string | null;
  lower_price?: string | null;
  quantity_per_grid?: string | null;
  grids_quantity?: number | null;
  grid_type?: string | null;
  order_currency_type?: string | null;
  profit_currency_type?: string | null;
  max_active_buy_lines?: number | null;
  max_active_sell_lines?: number | null;
  trailing_up_enabled?: boolean | null;
  trailing_down_enabled?: boolean | null;
  expansion_up_enabled?: boolean | null;
  expansion_up_stop_price?: string | null;
  expansion_down_enabled?: boolean | null;
  expansion_down_stop_price?: string | null;
  upper_stop_loss_enabled?: boolean | null;
  upper_stop_loss_price?: string | null;
  upper_stop_loss_action?: string | null;
  lower_stop_loss_enabled?: boolean | null;
  lower_stop_loss_price?: string | null;
  lower_stop_loss_action?: string | null;
  leverage_type?: string | null;
  leverage_custom_value?: string | null;
  mode?: string | null;
  ignore_warnings?: boolean | null;
  note?: string | null;
}

/** The body fields an edit must carry, as the reference requires them. */
export const REQUIRED_PARAMS = ['upper_price', 'lower_price', 'quantity_per_grid', 'grids_quantity'] as const;
